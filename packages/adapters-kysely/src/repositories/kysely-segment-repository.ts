import type { ChildChunk, Segment } from "@service-api/domain";
import type { IndexingPatch, SegmentRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { currentIndexingJob, indexingPatchColumns } from "./document-indexing.js";
import { childFromRow, childToRow, segmentFromRow, segmentToRow } from "./segment-rows.js";

/** Rows per insert: within both databases' limits on a statement's parameters (23 per segment). */
const ROWS_PER_INSERT = 500;

function* inBatches<Item>(items: readonly Item[]): Generator<Item[]> {
  for (let start = 0; start < items.length; start += ROWS_PER_INSERT)
    yield items.slice(start, start + ROWS_PER_INSERT);
}

/** Segments as rows of `chunks` (grown in 0010/0018), child chunks as rows of `child_chunks`. */
export class KyselySegmentRepository implements SegmentRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async publish(
    documentId: string,
    jobId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
    finish: IndexingPatch,
  ): Promise<boolean> {
    const write = async (db: Kysely<DatabaseSchema>) => {
      // The document's row, locked (an update), while the job is current: a create that reuses
      // the document, or its delete, waits for this transaction or finds it done.
      if (!(await currentIndexingJob(db, documentId, jobId, indexingPatchColumns(finish)))) return false;
      await db.deleteFrom("chunks").where("document_id", "=", documentId).execute();
      for (const batch of inBatches(segments))
        await db.insertInto("chunks").values(batch.map(segmentToRow)).execute();
      for (const batch of inBatches(children))
        await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
      return true;
    };
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  async listOfDocument(documentId: string): Promise<Segment[]> {
    const rows = await this.db
      .selectFrom("chunks")
      .selectAll()
      .where("document_id", "=", documentId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows.map(segmentFromRow);
  }

  async listChildrenOfDocument(documentId: string): Promise<ChildChunk[]> {
    const rows = await this.db
      .selectFrom("child_chunks as child")
      .innerJoin("chunks as segment", "segment.id", "child.segment_id")
      .selectAll("child")
      .where("child.document_id", "=", documentId)
      .orderBy("segment.position")
      .orderBy("child.position")
      .orderBy("child.id")
      .execute();
    return rows.map(childFromRow);
  }
}
