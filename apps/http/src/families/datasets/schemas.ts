import {
  DATASET_PERMISSIONS,
  type RetrievalModel,
  SEARCH_METHODS,
  TOP_K_MAX,
  TOP_K_MIN,
} from "@service-api/domain";
import { z } from "zod";
import { jsonNumber } from "../../api/common-schemas.js";

const NOT_HELD = "Not held by this service: Dify's value for an `economy` dataset.";

export const retrievalModel = z.object({
  search_method: z.enum(SEARCH_METHODS),
  reranking_enable: z.boolean(),
  reranking_mode: z.string().nullable(),
  reranking_model: z.object({ reranking_provider_name: z.string(), reranking_model_name: z.string() }),
  weights: z.record(z.string(), z.unknown()).nullable(),
  top_k: z.number().int(),
  score_threshold_enabled: z.boolean(),
  score_threshold: z.number().nullable(),
});

const TOP_K_REFUSED = `must be an integer from ${TOP_K_MIN} to ${TOP_K_MAX}.`;
const NOT_FINITE = "must be a finite number.";

/**
 * A retrieval model as a request gives it (Dify's `RetrievalModel`), with what it may leave out
 * filled in: search method, reranking, `top_k` (1–100) and the threshold's switch are required.
 */
export const retrievalModelInput = z
  .object({
    search_method: z.enum(SEARCH_METHODS),
    reranking_enable: z.boolean(),
    reranking_model: z
      .object({
        reranking_provider_name: z.string().nullable().optional(),
        reranking_model_name: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
    reranking_mode: z.string().nullable().optional(),
    top_k: jsonNumber
      .refine((value) => Number.isInteger(value) && value >= TOP_K_MIN && value <= TOP_K_MAX, {
        error: TOP_K_REFUSED,
      })
      .meta({ type: "integer", minimum: TOP_K_MIN, maximum: TOP_K_MAX }),
    score_threshold_enabled: z.boolean(),
    score_threshold: jsonNumber
      .refine((value) => Number.isFinite(value), { error: NOT_FINITE })
      .nullable()
      .optional(),
    weights: z.record(z.string(), z.unknown()).nullable().optional(),
    metadata_filtering_conditions: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .transform(
    (model): RetrievalModel => ({
      search_method: model.search_method,
      reranking_enable: model.reranking_enable,
      reranking_model: {
        reranking_provider_name: model.reranking_model?.reranking_provider_name ?? "",
        reranking_model_name: model.reranking_model?.reranking_model_name ?? "",
      },
      reranking_mode: model.reranking_mode ?? null,
      top_k: model.top_k,
      score_threshold_enabled: model.score_threshold_enabled,
      score_threshold: model.score_threshold ?? null,
      weights: model.weights ?? null,
      ...(model.metadata_filtering_conditions != null && {
        metadata_filtering_conditions: model.metadata_filtering_conditions,
      }),
    }),
  );

const datasetName = z.string().meta({
  description: "1 to 40 characters, not blank; unique among the workspace's datasets.",
});
const description = z.string().meta({ description: "At most 400 characters." });
const technique = z.enum(["high_quality", "economy"]).meta({
  description: "`economy` (full-text search, no model); `high_quality` needs an embedding model: refused.",
});
const permission = z
  .enum(DATASET_PERMISSIONS)
  .meta({ description: "Stored and shown; any knowledge key of the workspace reaches the dataset." });
const modelName = z.string().nullable().optional().meta({ description: "Ignored: no model runs here." });
const summaryIndexSetting = z
  .object({ enable: z.boolean().nullable().optional() })
  .nullable()
  .optional()
  .meta({ description: "`enable: true` needs a language model: refused." });

export const createDatasetBody = z.object({
  name: datasetName,
  description: description.optional(),
  indexing_technique: technique.nullable().optional(),
  permission: permission.nullable().optional().meta({ default: "only_me" }),
  provider: z
    .enum(["vendor", "external"])
    .optional()
    .meta({ description: "`vendor` (default); `external` is refused." }),
  retrieval_model: retrievalModelInput.nullable().optional(),
  embedding_model: modelName,
  embedding_model_provider: modelName,
  summary_index_setting: summaryIndexSetting,
});

export const updateDatasetBody = z.object({
  name: datasetName.optional(),
  description: description.optional(),
  indexing_technique: technique
    .nullable()
    .optional()
    .meta({ description: "Once set, never unset (`null` is refused)." }),
  permission: permission.optional(),
  retrieval_model: retrievalModelInput.optional(),
  embedding_model: modelName,
  embedding_model_provider: modelName,
});

export const datasetObject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  provider: z.literal("vendor"),
  permission: z
    .enum(DATASET_PERMISSIONS)
    .meta({ description: "As stored; any knowledge key of the workspace reaches it." }),
  data_source_type: z.string().meta({ description: 'Its first document\'s; `""` without documents.' }),
  indexing_technique: z
    .enum(["economy", "high_quality", ""])
    .meta({ description: 'As stored; `""` until a create or its first document sets it.' }),
  app_count: z.literal(0).meta({ description: NOT_HELD }),
  document_count: z.number().int(),
  word_count: z.number().int(),
  created_by: z.string().meta({ description: 'The creator member\'s id; `""` without one.' }),
  author_name: z.string().meta({ description: 'The creator member\'s name; `""` without one.' }),
  created_at: z.number().int(),
  updated_by: z.string().meta({ description: 'The last updater\'s id; `""` until then.' }),
  updated_at: z.number().int(),
  embedding_model: z.literal("").meta({ description: NOT_HELD }),
  embedding_model_provider: z.literal("").meta({ description: NOT_HELD }),
  embedding_available: z.literal(true),
  retrieval_model_dict: retrievalModel.meta({
    description: "As a create or update stored it; without one, Dify's economy default.",
  }),
  summary_index_setting: z.null(),
  tags: z
    .array(z.object({ id: z.string(), name: z.string(), type: z.literal("knowledge") }))
    .meta({ description: "Knowledge tags bound to it, by name, then id." }),
  doc_form: z.string().meta({ description: 'Its first document\'s; `""` without documents.' }),
  external_knowledge_info: z.null(),
  external_retrieval_model: z.null(),
  doc_metadata: z
    .array(z.object({ id: z.string(), name: z.string(), type: z.enum(["string", "number", "time"]) }))
    .meta({ description: 'Custom fields by creation, then the built-ins (`id: "built-in"`) when shown.' }),
  built_in_field_enabled: z.boolean(),
  enable_api: z.boolean(),
  pipeline_id: z.null(),
  chunk_structure: z.null(),
  icon_info: z.null(),
  maintainer: z.null(),
  runtime_mode: z.literal("general"),
  is_published: z.literal(false),
  is_multimodal: z.literal(false),
  total_documents: z.number().int(),
  total_available_documents: z.number().int(),
});
