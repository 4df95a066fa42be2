import { z } from "zod";

const NOT_HELD = "Not held by this service: Dify's value for an `economy` dataset.";

export const retrievalModel = z.object({
  search_method: z.string(),
  reranking_enable: z.boolean(),
  reranking_mode: z.null(),
  reranking_model: z.object({ reranking_provider_name: z.string(), reranking_model_name: z.string() }),
  weights: z.null(),
  top_k: z.number().int(),
  score_threshold_enabled: z.boolean(),
  score_threshold: z.number(),
});

export const datasetObject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  provider: z.literal("vendor"),
  permission: z
    .literal("all_team_members")
    .meta({ description: "Any knowledge key of the workspace reaches it." }),
  data_source_type: z.string().meta({ description: 'Its first document\'s; `""` without documents.' }),
  indexing_technique: z.literal("economy").meta({ description: NOT_HELD }),
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
  retrieval_model_dict: retrievalModel.meta({ description: NOT_HELD }),
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
