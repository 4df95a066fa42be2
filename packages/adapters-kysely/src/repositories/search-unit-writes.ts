import type { SearchUnit } from "@service-api/domain";
import type { Insertable, Kysely } from "kysely";
import type { DatabaseSchema, SearchPostingTable } from "../schema.js";
import { inSlices } from "./batches.js";

type Db = Kysely<DatabaseSchema>;

/** Rows per insert: within both databases' limits on a statement's parameters (7 per posting). */
const ROWS_PER_INSERT = 2000;

const lengthOf = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);

/** The units' postings, by term and then unit: each term's range written in one place. */
function postingsOf(
  datasetId: string,
  units: readonly SearchUnit[],
  seqOf: ReadonlyMap<string, number | string>,
): Insertable<SearchPostingTable>[] {
  const postings = units.flatMap((unit) => {
    const terms = new Set([...Object.keys(unit.content), ...Object.keys(unit.keywords)]);
    const [contentLength, keywordLength] = [lengthOf(unit.content), lengthOf(unit.keywords)];
    return [...terms].map((term) => ({
      dataset_id: datasetId,
      term,
      unit_seq: seqOf.get(unit.childId ?? unit.segmentId)!,
      content_tf: unit.content[term] ?? 0,
      keyword_tf: unit.keywords[term] ?? 0,
      content_length: contentLength,
      keyword_length: keywordLength,
    }));
  });
  return postings.sort((a, b) =>
    a.term < b.term ? -1 : a.term > b.term ? 1 : Number(a.unit_seq) - Number(b.unit_seq),
  );
}

/**
 * Indexes these units of the document's dataset (their old versions gone first, by the caller or
 * by the cascade of their segment's replacement): the caller's transaction makes them searchable
 * at its commit, with the segments they index.
 */
export async function writeSearchUnits(
  db: Db,
  documentId: string,
  units: readonly SearchUnit[],
): Promise<void> {
  if (units.length === 0) return;
  const [owner] = await db
    .selectFrom("documents")
    .select("dataset_id")
    .where("id", "=", documentId)
    .execute();
  if (!owner) return;
  const datasetId = owner.dataset_id;
  const rows = units.map((unit) => ({
    dataset_id: datasetId,
    document_id: documentId,
    segment_id: unit.segmentId,
    child_id: unit.childId,
    content_length: lengthOf(unit.content),
    keyword_length: lengthOf(unit.keywords),
  }));
  await countUnits(db, datasetId, rows);
  /** Each unit's `seq`, by its id (its child's, or its segment's). */
  const seqOf = new Map<string, number | string>();
  for await (const batch of inSlices(rows, 500)) {
    const keys = await db
      .insertInto("search_units")
      .values(batch)
      .returning(["seq", "segment_id", "child_id"])
      .execute();
    for (const key of keys) seqOf.set(key.child_id ?? key.segment_id, key.seq);
  }
  for await (const batch of inSlices(postingsOf(datasetId, units, seqOf), ROWS_PER_INSERT))
    await db.insertInto("search_postings").values(batch).execute();
}

/**
 * Adds the units to their dataset's statistics, in one statement (a delete takes them out by each
 * store's trigger, which sees the cascades too).
 */
async function countUnits(
  db: Db,
  datasetId: string,
  units: readonly { content_length: number; keyword_length: number }[],
): Promise<void> {
  const added = {
    units: units.length,
    content_units: units.filter((unit) => unit.content_length > 0).length,
    content_length: units.reduce((sum, unit) => sum + unit.content_length, 0),
    keyword_length: units.reduce((sum, unit) => sum + unit.keyword_length, 0),
  };
  await db
    .insertInto("search_stats")
    .values({ dataset_id: datasetId, ...added })
    .onConflict((conflict) =>
      conflict.column("dataset_id").doUpdateSet((eb) => ({
        units: eb("search_stats.units", "+", eb.ref("excluded.units")),
        content_units: eb("search_stats.content_units", "+", eb.ref("excluded.content_units")),
        content_length: eb("search_stats.content_length", "+", eb.ref("excluded.content_length")),
        keyword_length: eb("search_stats.keyword_length", "+", eb.ref("excluded.keyword_length")),
      })),
    )
    .execute();
}

/** Takes these child chunks' units out of the index (their postings go by the cascade). */
export async function deleteChildUnits(db: Db, childIds: readonly string[]): Promise<void> {
  if (childIds.length > 0)
    await db
      .deleteFrom("search_units")
      .where("child_id", "is not", null)
      .where("child_id", "in", [...childIds])
      .execute();
}

/** Takes a segment's units out of the index: its own, its keywords', its child chunks'. */
export async function deleteUnitsOfSegment(db: Db, segmentId: string): Promise<void> {
  await db.deleteFrom("search_units").where("segment_id", "=", segmentId).execute();
}
