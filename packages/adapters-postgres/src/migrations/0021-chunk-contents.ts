import { type Kysely, sql } from "kysely";
import { trigramOperatorClass } from "./trigram-operator-class.js";

/**
 * The chunk list's keyword filter, served by an index: one GIN index for "this document's chunks
 * whose content holds …" (pg_trgm's trigrams, btree_gin's `=` on the document; both extensions
 * from migration 0006).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const trigrams = await trigramOperatorClass(db);
  await sql
    .raw(`create index chunk_contents on chunks using gin (document_id, content ${trigrams})`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index chunk_contents`.execute(db);
}
