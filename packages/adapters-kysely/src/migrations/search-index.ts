import { type Kysely, sql } from "kysely";
import { indexSegments } from "../repositories/segment-edits.js";
import { childFromRow, segmentFromRow } from "../repositories/segment-rows.js";
import type { DatabaseSchema } from "../schema.js";

/**
 * Migration 0014 (SQLite) / 0022 (PostgreSQL), the tables both stores share: the search index.
 * A unit is what BM25 scores (a segment, or a parent-child document's child chunk, or a parent's
 * keywords alone; named by its segment and child), with its lengths in terms. A posting is a term
 * of a unit with how often it occurs in its content and in its keywords, and its unit's lengths
 * (since 0015/0023, which adds them where this migration ran before), keyed for the query's
 * seek (dataset, term), naming its unit by `seq`, a number that grows with each insert: a
 * document's postings are appended at the end of each term's range, not scattered through it by a
 * random id (what made 0012/0020's layout ten times slower to write). Each dataset's statistics
 * grow by the writer's upsert (`writeSearchUnits`) and shrink by each store's delete trigger.
 * Everything goes with its segment (or child chunk) by the foreign keys' cascade.
 */
export async function addSearchIndex(
  db: Kysely<unknown>,
  types: { text: string; integer: string; unitKey: string; postingsOptions: string },
): Promise<void> {
  const { text, integer } = types;
  await sql
    .raw(`create table search_units (
      seq ${types.unitKey} primary key,
      dataset_id ${text} not null,
      document_id ${text} not null,
      segment_id ${text} not null references chunks (id) on delete cascade,
      child_id ${text} references child_chunks (id) on delete cascade,
      content_length ${integer} not null,
      keyword_length ${integer} not null
    )`)
    .execute(db);
  await sql`create index search_units_by_segment on search_units (segment_id)`.execute(db);
  await sql`create index search_units_by_child on search_units (child_id) where child_id is not null`.execute(
    db,
  );
  await sql
    .raw(`create table search_postings (
      dataset_id ${text} not null,
      term ${text} not null,
      unit_seq ${integer} not null references search_units (seq) on delete cascade,
      content_tf ${integer} not null,
      keyword_tf ${integer} not null,
      content_length ${integer} not null,
      keyword_length ${integer} not null,
      primary key (dataset_id, term, unit_seq)
    ) ${types.postingsOptions}`)
    .execute(db);
  await sql`create index search_postings_by_unit on search_postings (unit_seq)`.execute(db);
  await sql
    .raw(`create table search_stats (
      dataset_id ${text} primary key references datasets (id) on delete cascade,
      units ${integer} not null default 0,
      content_units ${integer} not null default 0,
      content_length ${integer} not null default 0,
      keyword_length ${integer} not null default 0
    )`)
    .execute(db);
}

/**
 * Migration 0015 (SQLite) / 0023 (PostgreSQL): a search narrowed to some documents (a metadata
 * filter, given ids) finds their units by an index, instead of reading every unit of the dataset.
 */
export async function addUnitsByDocument(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists search_units_by_document on search_units (document_id)`.execute(db);
}

/**
 * Migration 0015 (SQLite) / 0023 (PostgreSQL), where 0014/0022 made postings without them: each
 * posting carries its unit's lengths, so that a query's scores are summed from its postings alone
 * and only the best units are looked up (the join of every posting to its unit was most of a
 * query's time: a hash of all the dataset's units on PostgreSQL, a lookup per posting on SQLite).
 * The lengths of the postings already written are copied from their units; `length` is the column
 * type, `dropDefault` whether the store can take the default off once the copy is made (SQLite
 * cannot; its writers always set both).
 */
export async function addPostingLengths(
  db: Kysely<unknown>,
  types: { length: string; dropDefault: boolean },
): Promise<void> {
  for (const column of ["content_length", "keyword_length"]) {
    await sql
      .raw(`alter table search_postings add column ${column} ${types.length} not null default 0`)
      .execute(db);
  }
  await sql`update search_postings set content_length = u.content_length, keyword_length = u.keyword_length
    from search_units u where u.seq = search_postings.unit_seq`.execute(db);
  if (!types.dropDefault) return;
  for (const column of ["content_length", "keyword_length"])
    await sql.raw(`alter table search_postings alter column ${column} drop default`).execute(db);
}

/** Indexes the segments stored before the index existed, a few documents at a time. */
export async function indexStoredSegments(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<DatabaseSchema>;
  for (let after = ""; ; ) {
    const documents = await db
      .selectFrom("documents")
      .select("id")
      .where("id", ">", after)
      .orderBy("id")
      .limit(100)
      .execute();
    for (const { id } of documents) {
      const segments = await db.selectFrom("chunks").selectAll().where("document_id", "=", id).execute();
      const children = await db
        .selectFrom("child_chunks")
        .selectAll()
        .where("document_id", "=", id)
        .execute();
      await indexSegments(db, id, segments.map(segmentFromRow), children.map(childFromRow));
    }
    if (documents.length < 100) return;
    after = documents.at(-1)!.id;
  }
}

/** Drops the index's tables, in either layout (0012/0020's or 0014/0022's). */
export async function dropSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists search_stats`.execute(db);
  await sql`drop table if exists search_postings`.execute(db);
  await sql`drop table if exists search_units`.execute(db);
}
