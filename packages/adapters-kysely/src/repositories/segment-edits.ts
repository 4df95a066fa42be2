import type { ChildChunk, Segment } from "@service-api/domain";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { childFromRow, childToRow, segmentToRow } from "./segment-rows.js";

/*
 * The chunks API's writes: segments added after a document's last, edited in place, and child
 * chunks added, edited and deleted. The caller holds the dataset, so the largest position read
 * here is still the largest when the insert lands.
 */

type Db = Kysely<DatabaseSchema>;

/** Rows per insert: within both databases' limits on a statement's parameters (23 per segment). */
const ROWS_PER_INSERT = 500;

export function* inBatches<Item>(items: readonly Item[]): Generator<Item[]> {
  for (let start = 0; start < items.length; start += ROWS_PER_INSERT)
    yield items.slice(start, start + ROWS_PER_INSERT);
}

/** Runs `write` in the caller's transaction, or in one of its own. */
export const inTransaction = <Result>(db: Db, write: (db: Db) => Promise<Result>): Promise<Result> =>
  db.isTransaction ? write(db) : db.transaction().execute(write);

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
  for (const batch of inBatches(placed))
    await db.insertInto("chunks").values(batch.map(segmentToRow)).execute();
  for (const batch of inBatches(children))
    await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
  await addWords(
    db,
    documentId,
    placed.reduce((sum, segment) => sum + segment.wordCount, 0),
  );
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
    for (const batch of inBatches(children))
      await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
  }
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
  return Number(updated.numUpdatedRows) > 0;
}

export async function deleteChild(db: Db, segmentId: string, childId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom("child_chunks")
    .where("id", "=", childId)
    .where("segment_id", "=", segmentId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
