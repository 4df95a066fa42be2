import type { SearchUnit } from "@service-api/domain";
import type { Insertable, Kysely } from "kysely";
import type { DatabaseSchema, SearchPostingTable } from "../schema.js";

type Db = Kysely<DatabaseSchema>;

/** Rows per insert: within both databases' limits on a statement's parameters (5 per posting). */
const ROWS_PER_INSERT = 2000;

function* batches<Item>(items: readonly Item[], size: number): Generator<Item[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

const lengthOf = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);

function postingsOf(datasetId: string, unit: SearchUnit): Insertable<SearchPostingTable>[] {
  const terms = new Set([...Object.keys(unit.content), ...Object.keys(unit.keywords)]);
  return [...terms].map((term) => ({
    dataset_id: datasetId,
    term,
    unit_id: unit.id,
    content_tf: unit.content[term] ?? 0,
    keyword_tf: unit.keywords[term] ?? 0,
  }));
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
  for (const batch of batches(units, 500))
    await db
      .insertInto("search_units")
      .values(
        batch.map((unit) => ({
          id: unit.id,
          dataset_id: datasetId,
          document_id: documentId,
          segment_id: unit.segmentId,
          child_id: unit.childId,
          content_length: lengthOf(unit.content),
          keyword_length: lengthOf(unit.keywords),
        })),
      )
      .execute();
  for (const batch of batches(
    units.flatMap((unit) => postingsOf(datasetId, unit)),
    ROWS_PER_INSERT,
  ))
    await db.insertInto("search_postings").values(batch).execute();
}

/** Takes these units out of the index (their postings go by the cascade). */
export async function deleteSearchUnits(db: Db, unitIds: readonly string[]): Promise<void> {
  if (unitIds.length > 0)
    await db
      .deleteFrom("search_units")
      .where("id", "in", [...unitIds])
      .execute();
}

/** Takes a segment's units out of the index: its own, its keywords', its child chunks'. */
export async function deleteUnitsOfSegment(db: Db, segmentId: string): Promise<void> {
  await db.deleteFrom("search_units").where("segment_id", "=", segmentId).execute();
}
