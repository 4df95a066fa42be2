/** Examples for the OpenAPI document, taken from the demo workspace's answers; the tests check them against their schemas. */

/** A page of one document (listDocuments). */
export const DOCUMENT_PAGE_EXAMPLE = {
  data: [
    {
      id: "5c197ece-9860-5f32-af91-dfca8a5d1253",
      position: 3,
      data_source_type: "upload_file",
      data_source_info: {},
      data_source_detail_dict: {},
      dataset_process_rule_id: "b441ab2d-bc9a-5652-8413-110cd3a19f79",
      name: "roadmap-2026.md",
      created_from: "api",
      created_by: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a02",
      created_at: 1767398400,
      tokens: 0,
      indexing_status: "indexing",
      error: null,
      enabled: true,
      disabled_at: null,
      disabled_by: null,
      archived: false,
      display_status: "indexing",
      word_count: 0,
      hit_count: 0,
      doc_form: "text_model",
      doc_metadata: [
        { id: "built-in", name: "document_name", type: "string", value: "roadmap-2026.md" },
        { id: "built-in", name: "uploader", type: "string", value: "Ada Lovelace" },
        { id: "built-in", name: "upload_date", type: "time", value: "1767398400" },
        { id: "built-in", name: "last_update_date", type: "time", value: "1767398400" },
        { id: "built-in", name: "source", type: "string", value: "file_upload" },
      ],
      summary_index_status: null,
      need_summary: false,
    },
  ],
  has_more: true,
  limit: 1,
  total: 3,
  page: 1,
};

/** A document with `metadata=all` (getDocumentDetail). */
export const DOCUMENT_EXAMPLE = {
  id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a11",
  position: 1,
  data_source_type: "upload_file",
  data_source_info: {
    upload_file: {
      id: "f294f48e-482f-5fcc-bb69-350a4e8fa2cc",
      name: "getting-started.md",
      size: 2048,
      extension: "md",
      mime_type: "text/markdown",
      created_by: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a02",
      created_at: 1767229200,
    },
  },
  dataset_process_rule_id: "7b9fe50e-5278-5e8d-966d-b8b291d012e4",
  dataset_process_rule: {
    id: "fecba681-ae7c-5b4f-b3c7-de0059e8c256",
    mode: "custom",
    rules: { segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 } },
  },
  document_process_rule: {
    id: "7b9fe50e-5278-5e8d-966d-b8b291d012e4",
    mode: "custom",
    rules: {
      pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
      segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 },
    },
  },
  name: "getting-started.md",
  created_from: "api",
  created_by: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a02",
  created_at: 1767229200,
  tokens: 412,
  indexing_status: "completed",
  error: null,
  enabled: true,
  disabled_at: null,
  disabled_by: null,
  archived: false,
  display_status: "available",
  hit_count: 22,
  doc_form: "text_model",
  doc_language: "English",
  doc_type: null,
  doc_metadata: [
    { id: "401c47eb-a9be-5a32-9c6b-62ba04d6cd9b", name: "author", type: "string", value: "Ada Lovelace" },
    { id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a12", name: "category", type: "string", value: "onboarding" },
    { id: "80932691-c06b-5377-85b2-97651e3f591d", name: "published", type: "time", value: "1767229200" },
    { id: "built-in", name: "document_name", type: "string", value: "getting-started.md" },
    { id: "built-in", name: "uploader", type: "string", value: "Ada Lovelace" },
    { id: "built-in", name: "upload_date", type: "time", value: "1767229200" },
    { id: "built-in", name: "last_update_date", type: "time", value: "1767232800" },
    { id: "built-in", name: "source", type: "string", value: "file_upload" },
  ],
  completed_at: 1767229260,
  updated_at: 1767232800,
  indexing_latency: 58.2,
  segment_count: 3,
  average_segment_length: 88,
  summary_index_status: null,
  need_summary: false,
};

/** A document created by text, answered before any chunk exists (createDocumentFromText). */
export const DOCUMENT_AND_BATCH_EXAMPLE = {
  document: {
    ...DOCUMENT_PAGE_EXAMPLE.data[0]!,
    indexing_status: "waiting",
    display_status: "queuing",
    word_count: 0,
    hit_count: 0,
  },
  batch: "20260101000000482913",
};

/** A batch's documents as they index (getDocumentIndexingStatus). */
export const INDEXING_STATUS_EXAMPLE = {
  data: [
    {
      id: DOCUMENT_PAGE_EXAMPLE.data[0]!.id,
      indexing_status: "completed",
      processing_started_at: 1767225600,
      parsing_completed_at: 1767225600,
      cleaning_completed_at: 1767225601,
      splitting_completed_at: 1767225601,
      completed_at: 1767225602,
      paused_at: null,
      error: null,
      stopped_at: null,
      completed_segments: 12,
      total_segments: 12,
    },
  ],
};
