import { z } from "zod";
import { retrievalModelInput } from "../datasets/schemas.js";

export const retrieveBody = z
  .object({
    // Checked in the use case, in Dify's order (`hit_testing_args_check`), after the dataset.
    query: z.unknown().optional().meta({ type: "string", maxLength: 250, description: "1–250 characters." }),
    retrieval_model: retrievalModelInput.nullable().optional().meta({
      description:
        "`keyword_search` (BM25 over content and keywords) or `full_text_search` (BM25 over content); `top_k` 1–100. Without it, the dataset's, else keyword search of the top 4. Semantic and hybrid search and reranking need a model: 400 `provider_not_initialize`.",
    }),
    attachment_ids: z
      .unknown()
      .optional()
      .meta({ type: "array", items: { type: "string" }, description: "Image queries: not supported here." }),
    external_retrieval_model: z.unknown().optional().meta({ type: "object", description: "Ignored." }),
  })
  .meta({ required: ["query"] });

const time = z.number().int().nullable();

const retrievedSegment = z.object({
  id: z.string(),
  position: z.number().int(),
  document_id: z.string(),
  content: z.string(),
  sign_content: z.string(),
  answer: z.string().nullable(),
  word_count: z.number().int(),
  tokens: z.number().int(),
  keywords: z.array(z.string()),
  index_node_id: z.string().nullable(),
  index_node_hash: z.string().nullable(),
  hit_count: z.number().int(),
  enabled: z.boolean(),
  disabled_at: time,
  disabled_by: z.string().nullable(),
  status: z.string(),
  created_by: z.string().nullable(),
  created_at: time,
  indexing_at: time,
  completed_at: time,
  error: z.string().nullable(),
  stopped_at: time,
  document: z.object({
    id: z.string(),
    data_source_type: z.string(),
    name: z.string(),
    doc_type: z.string().nullable(),
    doc_metadata: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        "The document's metadata values by field name (the five built-ins too while the dataset shows them, their dates as UTC `YYYY-MM-DD HH:MM:SS`); null for none.",
    }),
  }),
});

export const retrieval = z.object({
  query: z.object({ content: z.string() }),
  records: z.array(
    z.object({
      segment: retrievedSegment,
      child_chunks: z
        .array(
          z.object({ id: z.string(), content: z.string(), position: z.number().int(), score: z.number() }),
        )
        .meta({ description: "A parent-child document's matching child chunks, best first; else empty." }),
      score: z.number().meta({ description: "BM25 over the query's highest possible score: in (0, 1]." }),
      tsne_position: z.null(),
      files: z.array(z.unknown()),
      summary: z.null(),
    }),
  ),
});
