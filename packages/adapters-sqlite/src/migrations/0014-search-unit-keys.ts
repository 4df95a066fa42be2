import { addSearchIndex, dropSearchIndex, indexStoredSegments } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * The search index (`addSearchIndex`), built again from the stored segments: postings clustered
 * by their key (`without rowid`), a unit's `seq` its rowid. Each dataset's statistics grow by the
 * writer's one statement (`writeSearchUnits`) and shrink by a row trigger on its units, which
 * sees the cascades. Replaces 0012's layout, whose tables go first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await dropStatsTriggers(db);
  await dropSearchIndex(db);
  await addSearchIndex(db, {
    text: "text",
    integer: "integer",
    unitKey: "integer",
    postingsOptions: "without rowid",
  });
  await sql
    .raw(`create trigger search_units_counted_delete after delete on search_units begin
      update search_stats set
        units = units - 1,
        content_units = content_units - (old.content_length > 0),
        content_length = content_length - old.content_length,
        keyword_length = keyword_length - old.keyword_length
      where dataset_id = old.dataset_id;
    end`)
    .execute(db);
  await indexStoredSegments(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropStatsTriggers(db);
  await dropSearchIndex(db);
}

async function dropStatsTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists search_units_counted_delete`.execute(db);
  await sql`drop trigger if exists search_units_counted_insert`.execute(db);
}
