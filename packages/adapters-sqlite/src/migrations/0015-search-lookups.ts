import { addPostingLengths, addUnitsByDocument } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * Units found by their document (`addUnitsByDocument`); each posting carries its unit's lengths
 * (`addPostingLengths`), where 0014 made it without them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addUnitsByDocument(db);
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('search_postings')
    where name = 'content_length'`.execute(db);
  if (rows.length === 0) await addPostingLengths(db, { length: "integer", dropDefault: false });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists search_units_by_document`.execute(db);
  await sql`alter table search_postings drop column content_length`.execute(db);
  await sql`alter table search_postings drop column keyword_length`.execute(db);
}
