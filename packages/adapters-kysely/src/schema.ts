import type { Generated } from "kysely";

/** A boolean column: an integer 0/1 in SQLite, a boolean in PostgreSQL. */
export type Flag = number | boolean;

/** Table types of the schema both SQL adapters migrate to. snake_case as in SQL; JSON is text. */
export interface WorkspaceTable {
  id: string;
  name: string;
  status: string;
}

export interface MemberTable {
  id: string;
  workspace_id: string;
  name: string;
  /** Migration 0006: `owner` (one per workspace at most) or `normal`. */
  role: string;
}

export interface ApiKeyTable {
  id: string;
  kind: string;
  workspace_id: string;
  app_id: string | null;
  token_hash: string;
  display_prefix: string;
  created_at: number;
  last_used_at: number | null;
}

/** One row (id 1): the access revision migration 0004 keeps by triggers. */
export interface AccessRevisionTable {
  id: number;
  value: number;
}

/** The three columns that hold a processing rule inline. */
export interface ProcessRuleColumns {
  process_rule_id: string;
  process_rule_mode: string;
  process_rule_rules: string;
}

export interface DatasetTable {
  id: string;
  workspace_id: string;
  name: string;
  enable_api: Flag;
  built_in_field_enabled: Flag;
  /** All three null when the dataset has no processing rule. */
  process_rule_id: string | null;
  process_rule_mode: string | null;
  process_rule_rules: string | null;
  created_at: number;
  /** Kept by triggers: the dataset's documents. */
  document_count: Generated<number>;
  description: string;
  created_by: string | null;
  updated_by: string | null;
  updated_at: number;
  /** Kept by triggers (0006): documents whose display status is `available`. */
  available_document_count: Generated<number>;
  /** Kept by triggers (0006): the documents' word counts, summed. */
  word_count: Generated<number>;
  /** 0008/0016: `economy`, `high_quality`, or null until a create or first document sets it. */
  indexing_technique: string | null;
  permission: Generated<string>;
  /** JSON, as a create or update gave it; null for none. */
  retrieval_model: string | null;
  /** 0010/0018: the `doc_form` its first document fixed; null until then. */
  chunk_structure: string | null;
}

export interface UploadFileTable {
  id: string;
  workspace_id: string;
  name: string;
  size: number;
  extension: string;
  mime_type: string;
  created_by: string;
  created_at: number;
}

export interface DocumentTable extends ProcessRuleColumns {
  id: string;
  dataset_id: string;
  position: number;
  data_source_type: string;
  upload_file_id: string | null;
  name: string;
  created_from: string;
  created_by: string;
  created_at: number;
  updated_at: number | null;
  tokens: number;
  word_count: number;
  indexing_status: string;
  is_paused: Flag;
  error: string | null;
  enabled: Flag;
  disabled_at: number | null;
  disabled_by: string | null;
  archived: Flag;
  archived_at: number | null;
  archived_by: string | null;
  /** The domain's `displayStatus` of the row, written with it (0006). */
  display_status: string | null;
  doc_form: string;
  doc_language: string;
  doc_type: string | null;
  completed_at: number | null;
  indexing_latency: number | null;
  summary_index_status: string | null;
  need_summary: Flag;
  /** 0010/0018: the batch of its latest create or update, and its indexing steps' times. */
  batch: string | null;
  processing_started_at: number | null;
  parsing_completed_at: number | null;
  cleaning_completed_at: number | null;
  splitting_completed_at: number | null;
  paused_at: number | null;
  stopped_at: number | null;
  /** 0010/0018: the job indexing its current version; a job of a version replaced since writes nothing. */
  indexing_job: string | null;
}

export interface ChunkTable {
  id: string;
  document_id: string;
  position: number;
  content: string;
  /** Its length in code points: the segment's `word_count`. */
  char_count: number;
  hit_count: number;
  /** 0010/0018: the rest of Dify's segment. */
  answer: string | null;
  tokens: Generated<number>;
  /** JSON array; null for none. */
  keywords: string | null;
  index_node_id: string | null;
  index_node_hash: string | null;
  enabled: Generated<Flag>;
  disabled_at: number | null;
  disabled_by: string | null;
  status: Generated<string>;
  created_by: string | null;
  created_at: number | null;
  updated_at: number | null;
  updated_by: string | null;
  indexing_at: number | null;
  completed_at: number | null;
  error: string | null;
  stopped_at: number | null;
}

/** 0010/0018: a hierarchical document's segments' child chunks. */
export interface ChildChunkTable {
  id: string;
  segment_id: string;
  document_id: string;
  position: number;
  content: string;
  word_count: number;
  index_node_id: string | null;
  index_node_hash: string | null;
  type: string;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

export interface MetadataFieldTable {
  id: string;
  dataset_id: string;
  name: string;
  type: string;
  created_at: number;
  /** The field's place among its dataset's, in creation order: ties within a second keep it. */
  position: Generated<number>;
  /** Kept by triggers: documents holding a value for the field. */
  document_count: Generated<number>;
}

export interface DocumentMetadataValueTable {
  document_id: string;
  field_id: string;
  value: string;
}

export interface TagTable {
  id: string;
  workspace_id: string;
  type: string;
  /** Unique per (workspace_id, type) (0006). */
  name: string;
  created_at: number;
  /** Kept by triggers (0006): the tag's bindings. */
  binding_count: Generated<number>;
}

export interface TagBindingTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  tag_id: string;
  target_id: string;
  created_at: number;
}

export interface AppTable {
  id: string;
  workspace_id: string;
  name: string;
  mode: string;
  enable_api: Flag;
  status: string;
  description: string;
  created_by: string | null;
}

export interface SiteTable {
  app_id: string;
  title: string;
  chat_color_theme: string;
  chat_color_theme_inverted: Flag;
  icon_type: string;
  icon: string;
  icon_background: string;
  description: string;
  copyright: string;
  privacy_policy: string;
  input_placeholder: string | null;
  custom_disclaimer: string;
  default_language: string;
  show_workflow_steps: Flag;
  use_icon_as_answer_icon: Flag;
}

export interface EndUserTable {
  id: string;
  app_id: string;
  session_id: string;
}

export interface ConversationTable {
  id: string;
  app_id: string;
  end_user_id: string;
  is_deleted: Flag;
}

export interface ConversationVariableTable {
  conversation_id: string;
  id: string;
  name: string;
  value_type: string;
  value: string;
  description: string;
  created_at: number;
  updated_at: number;
}

/** Migration 0005: one rate limit window per key. */
export interface RateLimitCounterTable {
  key: string;
  hits: number;
  /** Unix milliseconds. */
  reset_at: number;
}

/** 0006, SQLite only: a stable integer key for each document's row in the name search index. */
export interface DocumentSearchKeyTable {
  seq: Generated<number>;
  document_id: string;
}

/** 0008/0016: work a background worker leases (a deleted dataset's purge, an indexing run). */
export interface JobTable {
  id: string;
  kind: string;
  /** What it works on: the dataset, the document. */
  subject_id: string;
  /** Unix ms: not before. */
  run_after: number;
  /** The worker holding it, until `lease_until` (Unix ms); null when free. */
  lease_owner: string | null;
  lease_until: number | null;
  attempts: Generated<number>;
  created_at: number;
}

/** 0009/0017: an uploaded file's bytes. */
export interface UploadFileContentTable {
  file_id: string;
  bytes: Buffer;
}

/** 0011/0019: the service's own secrets, by name; never exported. */
export interface ServiceSecretTable {
  name: string;
  value: string;
}

/** 0014/0022: what BM25 scores, its lengths in terms (`SearchUnit`); `seq` grows with each insert. */
export interface SearchUnitTable {
  seq: Generated<number | string>;
  dataset_id: string;
  document_id: string;
  segment_id: string;
  child_id: string | null;
  content_length: number;
  keyword_length: number;
}

/** 0014/0022: a term of a unit (by its `seq`), how often in its content and in its keywords. */
export interface SearchPostingTable {
  dataset_id: string;
  term: string;
  unit_seq: number | string;
  content_tf: number;
  keyword_tf: number;
  /** Its unit's lengths, as `search_units` holds them (0014/0022; added by 0015/0023 where those ran before). */
  content_length: number;
  keyword_length: number;
}

/** 0014/0022: a dataset's units, counted by triggers (bigint comes as text from PostgreSQL). */
export interface SearchStatsTable {
  dataset_id: string;
  units: number | string;
  content_units: number | string;
  content_length: number | string;
  keyword_length: number | string;
}

export interface DatabaseSchema {
  workspaces: WorkspaceTable;
  members: MemberTable;
  api_keys: ApiKeyTable;
  access_revision: AccessRevisionTable;
  datasets: DatasetTable;
  upload_files: UploadFileTable;
  documents: DocumentTable;
  chunks: ChunkTable;
  child_chunks: ChildChunkTable;
  metadata_fields: MetadataFieldTable;
  document_metadata_values: DocumentMetadataValueTable;
  tags: TagTable;
  tag_bindings: TagBindingTable;
  apps: AppTable;
  sites: SiteTable;
  end_users: EndUserTable;
  conversations: ConversationTable;
  conversation_variables: ConversationVariableTable;
  rate_limit_counters: RateLimitCounterTable;
  document_search_keys: DocumentSearchKeyTable;
  jobs: JobTable;
  upload_file_contents: UploadFileContentTable;
  service_secrets: ServiceSecretTable;
  search_units: SearchUnitTable;
  search_postings: SearchPostingTable;
  search_stats: SearchStatsTable;
}
