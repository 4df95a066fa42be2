import { addSearchIndex, dropSearchIndex, indexStoredSegments } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * The search index (`addSearchIndex`), built again from the stored segments: ids and terms in
 * the "C" collation, a unit's `seq` an identity. Each dataset's statistics grow by the writer's
 * one statement (`writeSearchUnits`) and shrink by a statement trigger on its units, one update of
 * a dataset's row per statement (a cascade of a delete), not one per unit. Replaces 0020's layout,
 * whose tables and functions go first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await dropSearchIndex(db);
  await dropStatsFunctions(db);
  await addSearchIndex(db, {
    text: 'text collate "C"',
    integer: "bigint",
    unitKey: "bigint generated always as identity",
    postingsOptions: "",
  });
  const totals = (table: string) => `
    select dataset_id, count(*) as units, count(*) filter (where content_length > 0) as content_units,
           sum(content_length) as content_length, sum(keyword_length) as keyword_length
    from ${table} group by dataset_id`;
  await sql
    .raw(`create function search_units_removed() returns trigger language plpgsql as $$
    begin
      update search_stats s set
        units = s.units - r.units,
        content_units = s.content_units - r.content_units,
        content_length = s.content_length - r.content_length,
        keyword_length = s.keyword_length - r.keyword_length
      from (${totals("removed")}) r
      where s.dataset_id = r.dataset_id;
      return null;
    end $$`)
    .execute(db);
  await sql`create trigger search_units_counted_delete after delete on search_units
    referencing old table as removed for each statement execute function search_units_removed()`.execute(db);
  await indexStoredSegments(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropSearchIndex(db);
  await dropStatsFunctions(db);
}

async function dropStatsFunctions(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists search_units_removed`.execute(db);
  await sql`drop function if exists search_units_added`.execute(db);
}
