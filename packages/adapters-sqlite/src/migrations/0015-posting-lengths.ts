import { addPostingLengths } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/** Each posting carries its unit's lengths (`addPostingLengths`), where 0014 made it without them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('search_postings')
    where name = 'content_length'`.execute(db);
  if (rows.length === 0) await addPostingLengths(db, { length: "integer", dropDefault: false });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_postings drop column content_length`.execute(db);
  await sql`alter table search_postings drop column keyword_length`.execute(db);
}
