import { z } from "zod";

const time = z.number().int().nullable().meta({ description: "Unix seconds; null if not set." });

export const childChunk = z.object({
  id: z.string(),
  segment_id: z.string(),
  content: z.string(),
  position: z.number().int(),
  word_count: z.number().int().meta({ description: "Characters (code points), as Dify counts." }),
  type: z.enum(["automatic", "customized"]),
  created_at: time,
  updated_at: time,
});

/** A chunk as Dify's `SegmentResponse` gives it, in its order. */
export const segment = z.object({
  id: z.string(),
  position: z.number().int(),
  document_id: z.string(),
  content: z.string(),
  sign_content: z.string().meta({ description: "The content; for plain text, equal to it." }),
  answer: z.string().nullable(),
  word_count: z.number().int().meta({ description: "Characters (code points) of content and answer." }),
  tokens: z.number().int(),
  keywords: z.array(z.string()),
  index_node_id: z.string().nullable(),
  index_node_hash: z.string().nullable(),
  hit_count: z.number().int(),
  enabled: z.boolean(),
  disabled_at: time,
  disabled_by: z.string().nullable(),
  status: z.string().meta({ description: "`waiting`, `indexing`, `completed`, `error` or `re_segment`." }),
  created_by: z.string().nullable(),
  created_at: time,
  updated_at: time,
  updated_by: z.string().nullable(),
  indexing_at: time,
  completed_at: time,
  error: z.string().nullable(),
  stopped_at: time,
  child_chunks: z.array(childChunk),
  attachments: z.array(z.unknown()).meta({ description: "Always empty here: no image chunks." }),
  summary: z.string().nullable(),
});

const docForm = z.string().meta({ description: "The document's `doc_form`." });

export const segmentPage = z.object({
  data: z.array(segment),
  doc_form: docForm,
  total: z.number().int(),
  has_more: z.boolean().meta({ description: "`page × limit < total`." }),
  limit: z.number().int().meta({ description: "As served: at most 100." }),
  page: z.number().int(),
});

export const oneSegment = z.object({ data: segment, doc_form: docForm });

export const childChunkPage = z.object({
  data: z.array(childChunk),
  total: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int().meta({ description: "As served: at most 100." }),
});
