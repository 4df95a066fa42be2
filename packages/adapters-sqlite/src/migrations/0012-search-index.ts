import { addSearchIndex, dropSearchIndex, indexStoredSegments } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * The search index (`addSearchIndex`); postings clustered by their key (`without rowid`), and each
 * dataset's statistics kept by row triggers on its units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addSearchIndex(db, { text: "text", integer: "integer", postingsOptions: "without rowid" });
  const change = (sign: "+" | "-", row: "new" | "old") => `
    update search_stats set
      units = units ${sign} 1,
      content_units = content_units ${sign} (${row}.content_length > 0),
      content_length = content_length ${sign} ${row}.content_length,
      keyword_length = keyword_length ${sign} ${row}.keyword_length
    where dataset_id = ${row}.dataset_id;`;
  await sql
    .raw(`create trigger search_units_counted_insert after insert on search_units begin
      insert or ignore into search_stats (dataset_id) values (new.dataset_id);
      ${change("+", "new")}
    end`)
    .execute(db);
  await sql
    .raw(
      `create trigger search_units_counted_delete after delete on search_units begin ${change("-", "old")} end`,
    )
    .execute(db);
  await indexStoredSegments(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger search_units_counted_delete`.execute(db);
  await sql`drop trigger search_units_counted_insert`.execute(db);
  await dropSearchIndex(db);
}
