import { addPostingLengths, addUnitsByDocument } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * Units found by their document (`addUnitsByDocument`); each posting carries its unit's lengths
 * (`addPostingLengths`), where 0022 made it without them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addUnitsByDocument(db);
  // pg_attribute, not information_schema (a view over every schema's columns, slow beside many).
  const { rows } = await sql`select 1 from pg_attribute where attrelid = 'search_postings'::regclass
    and attname = 'content_length' and not attisdropped`.execute(db);
  if (rows.length === 0) await addPostingLengths(db, { length: "bigint", dropDefault: true });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists search_units_by_document`.execute(db);
  await sql`alter table search_postings drop column content_length, drop column keyword_length`.execute(db);
}
