import { type Kysely, sql } from "kysely";

/**
 * Migration 0010 (SQLite) / 0018 (PostgreSQL), the part both stores share: what indexing a document
 * writes. A document's batch and the times of each indexing step, and the job that indexes its
 * current version (a job of a version replaced since writes nothing); a dataset's chunk structure
 * (the `doc_form` its first document fixed); a segment's fields as Dify's segment object shows them
 * (rows stored before keep Dify's values for a completed, enabled segment); and child chunks.
 */
export async function addDocumentsByText(
  db: Kysely<unknown>,
  types: { text: string; integer: string; flag: string; true: string },
): Promise<void> {
  const { text, integer, flag } = types;
  const add = (table: string, column: string, type: string, rest = "") =>
    sql.raw(`alter table ${table} add column ${column} ${type} ${rest}`).execute(db);

  await add("datasets", "chunk_structure", text);
  for (const column of [
    "processing_started_at",
    "parsing_completed_at",
    "cleaning_completed_at",
    "splitting_completed_at",
    "paused_at",
    "stopped_at",
  ])
    await add("documents", column, integer);
  await add("documents", "batch", text);
  await add("documents", "indexing_job", text);
  await sql`create index documents_by_batch on documents (dataset_id, batch)`.execute(db);
  // A create by text or file looks for an enabled document of the same name to reuse.
  await sql`create index documents_by_name on documents (dataset_id, name)`.execute(db);

  await add("chunks", "answer", text);
  await add("chunks", "tokens", integer, "not null default 0");
  await add("chunks", "keywords", text);
  await add("chunks", "index_node_id", text);
  await add("chunks", "index_node_hash", text);
  await add("chunks", "enabled", flag, `not null default ${types.true}`);
  await add("chunks", "disabled_at", integer);
  await add("chunks", "disabled_by", text);
  await add("chunks", "status", text, "not null default 'completed'");
  await add("chunks", "created_by", text);
  for (const column of ["created_at", "updated_at", "indexing_at", "completed_at", "stopped_at"])
    await add("chunks", column, integer);
  await add("chunks", "updated_by", text);
  await add("chunks", "error", text);
  await sql`create index chunks_by_document_position on chunks (document_id, position, id)`.execute(db);

  await sql
    .raw(`create table child_chunks (
      id ${text} primary key,
      segment_id ${text} not null references chunks (id) on delete cascade,
      document_id ${text} not null references documents (id) on delete cascade,
      position ${integer} not null,
      content ${text} not null,
      word_count ${integer} not null,
      index_node_id ${text},
      index_node_hash ${text},
      type ${text} not null,
      created_by ${text},
      created_at ${integer} not null,
      updated_at ${integer} not null,
      updated_by ${text}
    )`)
    .execute(db);
  await sql`create index child_chunks_by_segment on child_chunks (segment_id, position, id)`.execute(db);
  await sql`create index child_chunks_by_document on child_chunks (document_id)`.execute(db);
}

export async function dropDocumentsByText(db: Kysely<unknown>): Promise<void> {
  await sql`drop table child_chunks`.execute(db);
  await sql`drop index chunks_by_document_position`.execute(db);
  await sql`drop index documents_by_batch`.execute(db);
  await sql`drop index documents_by_name`.execute(db);
  for (const column of [
    "answer",
    "tokens",
    "keywords",
    "index_node_id",
    "index_node_hash",
    "enabled",
    "disabled_at",
    "disabled_by",
    "status",
    "created_by",
    "created_at",
    "updated_at",
    "indexing_at",
    "completed_at",
    "stopped_at",
    "updated_by",
    "error",
  ])
    await sql.raw(`alter table chunks drop column ${column}`).execute(db);
  for (const column of [
    "processing_started_at",
    "parsing_completed_at",
    "cleaning_completed_at",
    "splitting_completed_at",
    "paused_at",
    "stopped_at",
    "batch",
    "indexing_job",
  ])
    await sql.raw(`alter table documents drop column ${column}`).execute(db);
  await sql`alter table datasets drop column chunk_structure`.execute(db);
}
