import type { Chunk, Document } from "@service-api/domain";
import type { DocumentPlace } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { ChunkTable, DatabaseSchema } from "../schema.js";
import { documentFromRow } from "./document-rows.js";

/** The dataset's first documents in position order: the head of `documents_by_dataset_position`. */
const firstDocuments = compiledRead((db, datasetId: string, limit: number) =>
  db
    .selectFrom("documents")
    .selectAll()
    .where("dataset_id", "=", datasetId)
    .orderBy("position")
    .orderBy("id")
    .limit(limit),
);

/**
 * The dataset's documents after a place, in position order. The place is compared as one row value,
 * which both databases seek to in `documents_by_dataset_position` and read on from, in its order:
 * no sort, and no entry before the place read. The same test written as `position > ? or (position
 * = ? and id > ?)` seeks only to the dataset, and reads every entry before the place on each page.
 */
const documentsAfter = compiledRead(
  (db, datasetId: string, position: number, documentId: string, limit: number) =>
    db
      .selectFrom("documents")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .where((eb) => eb(eb.refTuple("position", "id"), ">", eb.tuple(position, documentId)))
      .orderBy("position")
      .orderBy("id")
      .limit(limit),
);

/** `DocumentRepository.listInDatasetAfter`'s read. */
export async function readDocumentsAfter(
  db: Kysely<DatabaseSchema>,
  datasetId: string,
  after: DocumentPlace | undefined,
  limit: number,
): Promise<Document[]> {
  const rows = after
    ? await documentsAfter(db, datasetId, after.position, after.id, limit)
    : await firstDocuments(db, datasetId, limit);
  return rows.map(documentFromRow);
}

export const CHUNK_COLUMNS = ["id", "document_id", "position", "content", "hit_count"] as const;

type ChunkRow = Pick<Selectable<ChunkTable>, (typeof CHUNK_COLUMNS)[number]>;

export const chunkFromRow = (row: ChunkRow): Chunk => ({
  id: row.id,
  documentId: row.document_id,
  position: row.position,
  content: row.content,
  hitCount: row.hit_count,
});

/** The dataset's greatest document position (0 without documents): the end of its index entries. */
export async function readLastPosition(db: Kysely<DatabaseSchema>, datasetId: string): Promise<number> {
  const row = await db
    .selectFrom("documents")
    .select("position")
    .where("dataset_id", "=", datasetId)
    .orderBy("position", "desc")
    .limit(1)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}
