import { type Kysely, sql } from "kysely";

/**
 * Migration 0009 (SQLite) / 0017 (PostgreSQL), the part both stores share: uploaded files' bytes,
 * one row per file, going with the file's row (on delete cascade). In the database, so that every
 * instance on one PostgreSQL serves them and one backup holds everything.
 */
export async function addUploadFileContents(db: Kysely<unknown>, types: { text: string; blob: string }) {
  await sql
    .raw(`create table upload_file_contents (
      file_id ${types.text} primary key references upload_files (id) on delete cascade,
      bytes ${types.blob} not null
    )`)
    .execute(db);
}

export async function dropUploadFileContents(db: Kysely<unknown>): Promise<void> {
  await sql`drop table upload_file_contents`.execute(db);
}
