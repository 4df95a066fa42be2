import {
  DATASET_PERMISSIONS,
  INDEXING_STATUSES,
  INDEXING_TECHNIQUES,
  SEGMENT_STATUSES,
} from "@service-api/domain";
import { z } from "zod";
import { isBase64 } from "./base64.js";
import { id, name, processRule, recordOf, retrievalModel, timestamp } from "./common.js";

export const metadataFieldSchema = z.strictObject({
  id: id.optional(),
  name,
  type: z.enum(["string", "number", "time"]),
  created_at: timestamp.optional(),
});

export const uploadFileSchema = z.strictObject({
  id: id.optional(),
  name,
  size: z.number().int().nonnegative(),
  extension: z.string(),
  mime_type: z.string(),
  created_by: z.string().min(1).optional(),
  created_at: timestamp.optional(),
  /** The file's bytes; `size` of them. Without it, the bytes stored for the file (if any) stay. */
  content_base64: z
    .string()
    .refine(isBase64, { error: "must be base64 (A–Z, a–z, 0–9, + and /, padded with = to groups of 4)" })
    .meta({ contentEncoding: "base64" })
    .optional(),
});

/** What the store keeps as an id given by something else (an index node, a member): any text, or null. */
const reference = z.string().nullable().default(null);

/** A child chunk of a hierarchical document's segment, in order; its `word_count` is counted. */
export const childChunkSchema = z.strictObject({
  id: id.optional(),
  content: z.string(),
  index_node_id: reference,
  index_node_hash: reference,
  type: z.enum(["automatic", "customized"]).default("automatic"),
  created_by: reference,
  /** Default: its segment's, else its document's. */
  created_at: timestamp.optional(),
  /** Default: its `created_at`. */
  updated_at: timestamp.optional(),
  updated_by: reference,
});

/**
 * A segment as Dify's segment object shows it; what the file leaves out is what an imported
 * segment always had: completed, enabled, nulls. Its `word_count` is counted (code points of its
 * content and answer), never read.
 */
export const segmentSchema = z.strictObject({
  id: id.optional(),
  content: z.string(),
  answer: z.string().nullable().default(null),
  hit_count: z.number().int().nonnegative().default(0),
  tokens: z.number().int().nonnegative().default(0),
  keywords: z.array(z.string()).default([]),
  index_node_id: reference,
  index_node_hash: reference,
  enabled: z.boolean().default(true),
  disabled_at: timestamp.nullable().default(null),
  disabled_by: reference,
  status: z.enum(SEGMENT_STATUSES).default("completed"),
  created_by: reference,
  created_at: timestamp.nullable().default(null),
  updated_at: timestamp.nullable().default(null),
  updated_by: reference,
  indexing_at: timestamp.nullable().default(null),
  completed_at: timestamp.nullable().default(null),
  error: z.string().nullable().default(null),
  stopped_at: timestamp.nullable().default(null),
  child_chunks: z.array(childChunkSchema).default([]),
});

export const documentSchema = z.strictObject({
  id: id.optional(),
  name,
  position: z.number().int().nonnegative().optional(),
  data_source_type: z.enum(["upload_file", "thirdparty_import"]).default("upload_file"),
  indexing_status: z.enum(INDEXING_STATUSES).default("completed"),
  is_paused: z.boolean().default(false),
  enabled: z.boolean().default(true),
  disabled_at: timestamp.nullable().default(null),
  disabled_by: z.string().nullable().default(null),
  archived: z.boolean().default(false),
  archived_at: timestamp.nullable().default(null),
  archived_by: z.string().nullable().default(null),
  doc_form: z.enum(["text_model", "hierarchical_model", "qa_model"]).default("text_model"),
  doc_language: z.string().default("English"),
  doc_type: z.string().nullable().default(null),
  created_from: z.enum(["api", "web"]).default("api"),
  created_by: z.string().min(1).optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.nullable().optional(),
  completed_at: timestamp.nullable().optional(),
  indexing_latency: z.number().nonnegative().nullable().default(null),
  tokens: z.number().int().nonnegative().default(0),
  word_count: z.number().int().nonnegative().optional(),
  error: z.string().nullable().default(null),
  summary_index_status: z.string().nullable().default(null),
  need_summary: z.boolean().default(false),
  batch: z.string().nullable().default(null),
  processing_started_at: timestamp.nullable().default(null),
  parsing_completed_at: timestamp.nullable().default(null),
  cleaning_completed_at: timestamp.nullable().default(null),
  splitting_completed_at: timestamp.nullable().default(null),
  paused_at: timestamp.nullable().default(null),
  stopped_at: timestamp.nullable().default(null),
  upload_file: uploadFileSchema.optional(),
  process_rule: processRule.optional(),
  metadata: recordOf(z.union([z.string(), z.number()])).prefault({}),
  segments: z.array(segmentSchema).default([]),
});

export const datasetSchema = z.strictObject({
  id: id.optional(),
  name,
  description: z.string().default(""),
  /** A member of the workspace, or null; default: its owner. */
  created_by: z.string().min(1).nullable().optional(),
  updated_by: z.string().min(1).nullable().optional(),
  updated_at: timestamp.optional(),
  enable_api: z.boolean().default(true),
  built_in_field_enabled: z.boolean().default(false),
  /** Files written before datasets were made by the API hold neither: what those showed. */
  indexing_technique: z.enum(INDEXING_TECHNIQUES).nullable().default("economy"),
  permission: z.enum(DATASET_PERMISSIONS).default("all_team_members"),
  retrieval_model: retrievalModel.nullable().default(null),
  created_at: timestamp.optional(),
  tag_ids: z.array(id).default([]),
  process_rule: processRule.optional(),
  metadata_fields: z.array(metadataFieldSchema).default([]),
  documents: z.array(documentSchema).default([]),
});
