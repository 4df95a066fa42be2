import type { DatasetView } from "@service-api/application";
import { BUILT_IN_FIELD_ID, BUILT_IN_FIELDS } from "@service-api/domain";
import type { z } from "zod";
import type { datasetObject } from "./schemas.js";

/** Dify's retrieval settings of an `economy` dataset: this service holds none of its own. */
const ECONOMY_RETRIEVAL = {
  search_method: "keyword_search",
  reranking_enable: false,
  reranking_mode: null,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  weights: null,
  top_k: 2,
  score_threshold_enabled: false,
  score_threshold: 0,
};

/** The dataset object, keys in Dify's order; what this service cannot fill has Dify's economy value. */
export function presentDataset(view: DatasetView): z.output<typeof datasetObject> {
  const { dataset, counts, firstDocument, authorName, tags, fields } = view;
  const builtIns = dataset.builtInFieldEnabled
    ? BUILT_IN_FIELDS.map(({ name, type }) => ({ id: BUILT_IN_FIELD_ID, name, type }))
    : [];
  return {
    id: dataset.id,
    name: dataset.name,
    description: dataset.description,
    provider: "vendor",
    permission: "all_team_members",
    data_source_type: firstDocument?.dataSourceType ?? "",
    indexing_technique: "economy",
    app_count: 0,
    document_count: counts.documents,
    word_count: counts.words,
    created_by: dataset.createdBy ?? "",
    author_name: authorName ?? "",
    created_at: dataset.createdAt,
    updated_by: dataset.updatedBy ?? "",
    updated_at: dataset.updatedAt,
    embedding_model: "",
    embedding_model_provider: "",
    embedding_available: true,
    retrieval_model_dict: ECONOMY_RETRIEVAL,
    summary_index_setting: null,
    tags: tags.map(({ id, name }) => ({ id, name, type: "knowledge" as const })),
    doc_form: firstDocument?.docForm ?? "",
    external_knowledge_info: null,
    external_retrieval_model: null,
    doc_metadata: [...fields.map(({ id, name, type }) => ({ id, name, type })), ...builtIns],
    built_in_field_enabled: dataset.builtInFieldEnabled,
    enable_api: dataset.enableApi,
    pipeline_id: null,
    chunk_structure: null,
    icon_info: null,
    maintainer: null,
    runtime_mode: "general",
    is_published: false,
    is_multimodal: false,
    total_documents: counts.documents,
    total_available_documents: counts.availableDocuments,
  };
}
