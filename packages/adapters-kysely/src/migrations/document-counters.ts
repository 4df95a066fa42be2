/**
 * The counts migration 0003 keeps by triggers, in both SQL stores: each entry names the table
 * holding the count, the table of counted rows, and their column naming the owner. The trigger
 * language differs between SQLite and PostgreSQL, so each adapter writes its own statements.
 */
export const DOCUMENT_COUNTERS = [
  ["datasets", "documents", "dataset_id"],
  ["metadata_fields", "document_metadata_values", "field_id"],
] as const;
