import {
  analyze,
  type ChildChunk,
  childUnit,
  type DocForm,
  type Segment,
  searchUnitsOf,
} from "@service-api/domain";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { inSlices } from "./batches.js";
import { deleteChildUnits, deleteUnitsOfSegment, writeSearchUnits } from "./search-unit-writes.js";
import { childFromRow, childToRow, segmentToRow } from "./segment-rows.js";

/*
 * The chunks API's writes: segments added after a document's last, edited in place, and child
 * chunks added, edited and deleted. The caller holds the dataset, so the largest position read
 * here is still the largest when the insert lands.
 */

type Db = Kysely<DatabaseSchema>;

/** Rows per insert: within both databases' limits on a statement's parameters (23 per segment). */
const ROWS_PER_INSERT = 500;

/** The rows in slices of `ROWS_PER_INSERT`, a turn of the event loop between two (`inSlices`). */
export const inBatches = <Item>(items: readonly Item[]) => inSlices(items, ROWS_PER_INSERT);

/** Runs `write` in the caller's transaction, or in one of its own. */
export const inTransaction = <Result>(db: Db, write: (db: Db) => Promise<Result>): Promise<Result> =>
  db.isTransaction ? write(db) : db.transaction().execute(write);

/** The document's `doc_form`: what its segments are indexed as. */
async function docFormOf(db: Db, documentId: string): Promise<DocForm | undefined> {
  const [row] = await db.selectFrom("documents").select("doc_form").where("id", "=", documentId).execute();
  return row?.doc_form as DocForm | undefined;
}

/** Indexes these segments with their children (`searchUnitsOf`), in the caller's transaction. */
export async function indexSegments(
  db: Db,
  documentId: string,
  segments: readonly Segment[],
  children: readonly ChildChunk[],
): Promise<void> {
  const docForm = await docFormOf(db, documentId);
  if (!docForm) return;
  const childrenOf = Map.groupBy(children, (child) => child.segmentId);
  const units = segments.flatMap((segment) =>
    searchUnitsOf(segment, childrenOf.get(segment.id) ?? [], docForm),
  );
  await writeSearchUnits(db, documentId, units);
}

/** Moves the document's word count by `delta`, never below 0. */
export async function addWords(db: Db, documentId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await db
    .updateTable("documents")
    .set((eb) => ({
      word_count: eb
        .case()
        .when(eb("word_count", "+", delta), ">", 0)
        .then(eb("word_count", "+", delta))
        .else(0)
        .end(),
    }))
    .where("id", "=", documentId)
    .execute();
}

export async function appendSegments(
  db: Db,
  documentId: string,
  segments: readonly Segment[],
  children: readonly ChildChunk[],
): Promise<Segment[]> {
  const [last] = await db
    .selectFrom("chunks")
    .select((eb) => eb.fn.max("position").as("position"))
    .where("document_id", "=", documentId)
    .execute();
  const first = Number(last?.position ?? 0) + 1;
  const placed = segments.map((segment, index) => ({ ...segment, documentId, position: first + index }));
  for await (const batch of inBatches(placed))
    await db.insertInto("chunks").values(batch.map(segmentToRow)).execute();
  for await (const batch of inBatches(children))
    await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
  await addWords(
    db,
    documentId,
    placed.reduce((sum, segment) => sum + segment.wordCount, 0),
  );
  await indexSegments(db, documentId, placed, children);
  return placed;
}

export async function updateSegment(
  db: Db,
  documentId: string,
  segment: Segment,
  children: readonly ChildChunk[] | undefined,
): Promise<boolean> {
  const { id, document_id, position, ...columns } = segmentToRow(segment);
  const [before] = await db
    .selectFrom("chunks")
    .select("char_count")
    .where("id", "=", id)
    .where("document_id", "=", documentId)
    .execute();
  if (!before) return false;
  await db.updateTable("chunks").set(columns).where("id", "=", id).execute();
  await addWords(db, documentId, segment.wordCount - Number(before.char_count));
  if (children) {
    await db.deleteFrom("child_chunks").where("segment_id", "=", id).execute();
    for await (const batch of inBatches(children))
      await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
  }
  await deleteUnitsOfSegment(db, id);
  const indexed =
    children ??
    (await db.selectFrom("child_chunks").selectAll().where("segment_id", "=", id).execute()).map(
      childFromRow,
    );
  await indexSegments(db, documentId, [{ ...segment, documentId }], indexed);
  return true;
}

export async function findChild(db: Db, segmentId: string, childId: string): Promise<ChildChunk | undefined> {
  const [row] = await db
    .selectFrom("child_chunks")
    .selectAll()
    .where("id", "=", childId)
    .where("segment_id", "=", segmentId)
    .execute();
  return row && childFromRow(row);
}

export async function appendChild(db: Db, child: ChildChunk): Promise<ChildChunk> {
  const [last] = await db
    .selectFrom("child_chunks")
    .select((eb) => eb.fn.max("position").as("position"))
    .where("segment_id", "=", child.segmentId)
    .execute();
  const placed = { ...child, position: Number(last?.position ?? 0) + 1 };
  await db.insertInto("child_chunks").values(childToRow(placed)).execute();
  await indexChild(db, placed);
  return placed;
}

export async function updateChild(db: Db, child: ChildChunk): Promise<boolean> {
  const { id, segment_id, document_id, position, ...columns } = childToRow(child);
  const updated = await db
    .updateTable("child_chunks")
    .set(columns)
    .where("id", "=", id)
    .where("segment_id", "=", segment_id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await deleteChildUnits(db, [child.id]);
  await indexChild(db, child);
  return true;
}

/** A parent-child document's child chunk, indexed on its own. */
async function indexChild(db: Db, child: ChildChunk): Promise<void> {
  if ((await docFormOf(db, child.documentId)) === "hierarchical_model")
    await writeSearchUnits(db, child.documentId, [childUnit(child, analyze(child.content))]);
}

export async function deleteChild(db: Db, segmentId: string, childId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom("child_chunks")
    .where("id", "=", childId)
    .where("segment_id", "=", segmentId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
