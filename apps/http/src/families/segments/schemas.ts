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

const contentField = { type: "string", description: "Not blank." };
const keywordsField = {
  type: "array",
  items: { type: "string" },
  description: "The chunk's keywords, kept in this order (each once); none given, none.",
};
const answerField = {
  type: "string",
  description: "A QA document's answer (required there); ignored elsewhere.",
};

// The bodies are read in the use cases, after the document (and segment) are found, as Dify
// checks them: the schemas here only describe them.

export const createSegmentsBody = z
  .object({
    segments: z
      .unknown()
      .optional()
      .meta({
        type: "array",
        minItems: 1,
        description:
          "The chunks to add after the document's last; at most `DATASET_MAX_SEGMENTS_PER_REQUEST` (1000).",
        items: {
          type: "object",
          required: ["content"],
          properties: { content: contentField, answer: answerField, keywords: keywordsField },
        },
      }),
  })
  .meta({ required: ["segments"] });

export const updateSegmentBody = z
  .object({
    segment: z
      .unknown()
      .optional()
      .meta({
        type: "object",
        description: "What changes; a field not sent keeps its value.",
        properties: {
          content: contentField,
          answer: answerField,
          keywords: {
            ...keywordsField,
            description: "Replace the chunk's keywords (an empty list changes nothing).",
          },
          enabled: {
            type: "boolean",
            description:
              "`false` disables the chunk (nothing else changes); a disabled chunk takes an update only with `true`.",
          },
          regenerate_child_chunks: {
            type: "boolean",
            default: false,
            description:
              "A parent-child document's chunk: split its child chunks anew by the document's rule.",
          },
        },
      }),
  })
  .meta({ required: ["segment"] });

export const childChunkBody = z
  .object({ content: z.unknown().optional().meta({ type: "string", description: "Not blank." }) })
  .meta({ required: ["content"] });

export const segmentList = z.object({ data: z.array(segment), doc_form: docForm });

export const oneChildChunk = z.object({ data: childChunk });
