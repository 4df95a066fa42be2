import type { DatasetView } from "@service-api/application";
import {
  BUILT_IN_FIELD_ID,
  BUILT_IN_FIELDS,
  ECONOMY_RETRIEVAL_MODEL,
  type RetrievalModel,
} from "@service-api/domain";
import type { z } from "zod";
import type { datasetObject } from "./schemas.js";

/** `retrieval_model_dict`: the stored model's settings, in Dify's key order; Dify's economy default without one. */
function retrievalModelDict(model: RetrievalModel | null) {
  const shown = model ?? ECONOMY_RETRIEVAL_MODEL;
  return {
    search_method: shown.search_method,
    reranking_enable: shown.reranking_enable,
    reranking_mode: shown.reranking_mode,
    reranking_model: shown.reranking_model,
    weights: shown.weights,
    top_k: shown.top_k,
    score_threshold_enabled: shown.score_threshold_enabled,
    score_threshold: shown.score_threshold,
  };
}

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
    permission: dataset.permission,
    data_source_type: firstDocument?.dataSourceType ?? "",
    indexing_technique: dataset.indexingTechnique ?? "",
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
    retrieval_model_dict: retrievalModelDict(dataset.retrievalModel),
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
