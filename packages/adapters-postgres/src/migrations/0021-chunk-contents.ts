import { type Kysely, sql } from "kysely";

/**
 * The chunk list's keyword filter, served by an index: one GIN index for "this document's chunks
 * whose content holds …" (pg_trgm's trigrams, btree_gin's `=` on the document; both extensions
 * from migration 0006), its operator class qualified by the schema pg_trgm lives in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  const schema = rows[0]!.schema;
  await sql
    .raw(`create index chunk_contents on chunks using gin (document_id, content ${schema}.gin_trgm_ops)`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index chunk_contents`.execute(db);
}
