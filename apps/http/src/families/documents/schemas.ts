import { DISPLAY_STATUSES, INDEXING_STATUSES } from "@service-api/domain";
import { z } from "zod";

const seconds = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} (Unix seconds).` });
const nullableSeconds = (description: string) => seconds(description).nullable();

export const uploadFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  extension: z.string(),
  mime_type: z.string(),
  created_by: z.string(),
  created_at: seconds("Uploaded at"),
});

/** A processing rule, or `{}` where there is none. */
const processRule = z.union([
  z.object({ id: z.string(), mode: z.string(), rules: z.record(z.string(), z.unknown()) }),
  z.object({}),
]);

export const metadataValue = z.object({
  id: z.string().meta({ description: "The field's id; `built-in` for the five built-in fields." }),
  name: z.string(),
  type: z.enum(["string", "number", "time"]),
  value: z.string().nullable().meta({ description: "As a string; `time` values are Unix seconds." }),
});

const documentFields = {
  id: z.string(),
  position: z.number().int(),
  data_source_type: z.enum(["upload_file", "thirdparty_import"]),
  data_source_info: z
    .union([z.object({ upload_file: uploadFile }), z.object({})])
    .meta({ description: "The uploaded file, whole; `{}` when there is none." }),
  dataset_process_rule_id: z.string(),
  dataset_process_rule: processRule,
  document_process_rule: processRule,
  name: z.string(),
  created_from: z.enum(["api", "web"]),
  created_by: z.string(),
  created_at: seconds("Created at"),
  tokens: z.number().int(),
  indexing_status: z.enum(INDEXING_STATUSES),
  error: z.string().nullable(),
  enabled: z.boolean(),
  disabled_at: nullableSeconds("Disabled at"),
  disabled_by: z.string().nullable(),
  archived: z.boolean(),
  display_status: z.enum(DISPLAY_STATUSES).nullable(),
  hit_count: z.number().int(),
  doc_form: z.enum(["text_model", "hierarchical_model", "qa_model"]),
  doc_language: z.string(),
  doc_type: z.string().nullable(),
  completed_at: nullableSeconds("Indexing completed at"),
  updated_at: nullableSeconds("Updated at"),
  indexing_latency: z.number().nullable(),
  segment_count: z.number().int(),
  average_segment_length: z.number().int(),
  summary_index_status: z.string().nullable(),
  need_summary: z.boolean(),
};

const docMetadata = z.array(metadataValue).meta({
  description: "Values of custom fields, then the five built-ins when the dataset shows them.",
});

/** Get Document's three views: `all`, `only` and `without` (`doc_metadata`). */
export const documentView = z.union([
  z.object({ ...documentFields, doc_metadata: docMetadata }).meta({ title: "metadata=all" }),
  z
    .object({ id: z.string(), doc_type: z.string().nullable(), doc_metadata: docMetadata })
    .meta({ title: "metadata=only" }),
  z.object(documentFields).meta({ title: "metadata=without" }),
]);

export const documentListItem = z.object({
  id: z.string(),
  position: z.number().int(),
  data_source_type: documentFields.data_source_type,
  data_source_info: z
    .union([z.object({ upload_file_id: z.string() }), z.object({})])
    .meta({ description: "As stored: the uploaded file's id only." }),
  data_source_detail_dict: documentFields.data_source_info,
  dataset_process_rule_id: z.string(),
  name: z.string(),
  created_from: documentFields.created_from,
  created_by: z.string(),
  created_at: documentFields.created_at,
  tokens: z.number().int(),
  indexing_status: documentFields.indexing_status,
  error: z.string().nullable(),
  enabled: z.boolean(),
  disabled_at: documentFields.disabled_at,
  disabled_by: z.string().nullable(),
  archived: z.boolean(),
  display_status: documentFields.display_status,
  word_count: z.number().int(),
  hit_count: z.number().int(),
  doc_form: documentFields.doc_form,
  doc_metadata: docMetadata,
  summary_index_status: z.string().nullable(),
  need_summary: z.boolean(),
});
