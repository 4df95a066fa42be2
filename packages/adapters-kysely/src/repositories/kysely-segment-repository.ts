import type { ChildChunk, Segment } from "@service-api/domain";
import type { IndexingFence, IndexingPatch, SegmentRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { indexingPatchColumns, writeWhileFenced } from "./document-indexing.js";
import { childFromRow, childToRow, segmentFromRow, segmentToRow } from "./segment-rows.js";

/** Rows per insert: within both databases' limits on a statement's parameters (23 per segment). */
const ROWS_PER_INSERT = 500;

function* inBatches<Item>(items: readonly Item[]): Generator<Item[]> {
  for (let start = 0; start < items.length; start += ROWS_PER_INSERT)
    yield items.slice(start, start + ROWS_PER_INSERT);
}

/** Segments as rows of `chunks` (grown in 0010/0018), child chunks as rows of `child_chunks`. */
export class KyselySegmentRepository implements SegmentRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

  async publish(
    documentId: string,
    fence: IndexingFence,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
    finish: IndexingPatch,
  ): Promise<boolean> {
    const write = async (db: Kysely<DatabaseSchema>) => {
      // The dataset, then the document's row (an update), while the fence holds: a create that
      // reuses the document, or its delete, waits for this transaction or finds it done.
      if (!(await writeWhileFenced(db, this.features, documentId, fence, indexingPatchColumns(finish))))
        return false;
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
