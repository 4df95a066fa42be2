import type { ChildChunk, SearchUnit, Segment } from "@service-api/domain";
import type {
  DocumentSegments,
  IndexingFence,
  IndexingPatch,
  SegmentFilter,
  SegmentRepository,
} from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledForIds } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { indexingPatchColumns, writeWhileFenced } from "./document-indexing.js";
import { writeSearchUnits } from "./search-unit-writes.js";
import {
  addWords,
  appendChild,
  appendSegments,
  deleteChild,
  findChild,
  inBatches,
  indexSegments,
  inTransaction,
  updateChild,
  updateSegment,
} from "./segment-edits.js";
import { childFromRow, childToRow, segmentFromRow, segmentToRow } from "./segment-rows.js";

/** The segments of several documents, in each one's order: ordered as a whole, parted by document. */
const segmentsOfDocuments = compiledForIds((db, among) =>
  db.selectFrom("chunks").selectAll().where(among("document_id")).orderBy("position").orderBy("id"),
);

/**
 * Their child chunks by position, then id (the database's order of ids); put in their segments'
 * order after, by a stable sort, so that the read needs no join.
 */
const childrenOfDocuments = compiledForIds((db, among) =>
  db.selectFrom("child_chunks").selectAll().where(among("document_id")).orderBy("position").orderBy("id"),
);

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
    units: readonly SearchUnit[],
  ): Promise<boolean> {
    const write = async (db: Kysely<DatabaseSchema>) => {
      // The dataset, then the document's row (an update), while the fence holds: a create that
      // reuses the document, or its delete, waits for this transaction or finds it done.
      if (!(await writeWhileFenced(db, this.features, documentId, fence, indexingPatchColumns(finish))))
        return false;
      await db.deleteFrom("chunks").where("document_id", "=", documentId).execute();
      for await (const batch of inBatches(segments))
        await db.insertInto("chunks").values(batch.map(segmentToRow)).execute();
      for await (const batch of inBatches(children))
        await db.insertInto("child_chunks").values(batch.map(childToRow)).execute();
      await writeSearchUnits(db, documentId, units);
      return true;
    };
    return inTransaction(this.db, write);
  }

  async listPageOfDocument(documentId: string, filter: SegmentFilter, offset: number, limit: number) {
    const { statuses, keyword } = filter;
    let matching = this.db.selectFrom("chunks").where("document_id", "=", documentId);
    if (statuses?.length) matching = matching.where("status", "in", [...statuses]);
    if (keyword !== undefined) {
      // The content index narrows to candidates, the exact filter decides (ASCII case only).
      const candidates = this.features.chunkContentSearch(documentId, keyword);
      if (candidates) matching = matching.where(candidates);
      matching = matching.where(
        this.features.containsText("content", this.features.textFilterArgument(keyword)),
      );
    }
    const [counted] = await matching.select((eb) => eb.fn.countAll().as("total")).execute();
    const rows = await matching
      .selectAll()
      .orderBy("position")
      .orderBy("id")
      .limit(limit)
      .offset(offset)
      .execute();
    return { segments: rows.map(segmentFromRow), total: Number(counted?.total ?? 0) };
  }

  async listChildPageOfSegment(
    segmentId: string,
    keyword: string | undefined,
    offset: number,
    limit: number,
  ) {
    let matching = this.db.selectFrom("child_chunks").where("segment_id", "=", segmentId);
    if (keyword !== undefined)
      matching = matching.where(
        this.features.containsText("content", this.features.textFilterArgument(keyword)),
      );
    const [counted] = await matching.select((eb) => eb.fn.countAll().as("total")).execute();
    const rows = await matching
      .selectAll()
      .orderBy("position")
      .orderBy("id")
      .limit(limit)
      .offset(offset)
      .execute();
    return { children: rows.map(childFromRow), total: Number(counted?.total ?? 0) };
  }

  async listChildrenOf(segmentIds: readonly string[]): Promise<Map<string, ChildChunk[]>> {
    const read = new Map<string, ChildChunk[]>();
    if (segmentIds.length === 0) return read;
    const rows = await this.db
      .selectFrom("child_chunks")
      .selectAll()
      .where("segment_id", "in", [...new Set(segmentIds)])
      .orderBy("position")
      .orderBy("id")
      .execute();
    for (const row of rows)
      read.set(row.segment_id, [...(read.get(row.segment_id) ?? []), childFromRow(row)]);
    return read;
  }

  async listByIds(segmentIds: readonly string[]): Promise<Segment[]> {
    if (segmentIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("chunks")
      .selectAll()
      .where("id", "in", [...new Set(segmentIds)])
      .execute();
    return rows.map(segmentFromRow);
  }

  async findInDocument(documentId: string, segmentId: string): Promise<Segment | undefined> {
    const [row] = await this.db
      .selectFrom("chunks")
      .selectAll()
      .where("id", "=", segmentId)
      .where("document_id", "=", documentId)
      .execute();
    return row && segmentFromRow(row);
  }

  async deleteInDocument(documentId: string, segmentId: string): Promise<boolean> {
    const remove = async (db: Kysely<DatabaseSchema>) => {
      const [deleted] = await db
        .deleteFrom("chunks")
        .where("id", "=", segmentId)
        .where("document_id", "=", documentId)
        .returning("char_count")
        .execute();
      if (!deleted) return false;
      await db.deleteFrom("child_chunks").where("segment_id", "=", segmentId).execute();
      await addWords(db, documentId, -Number(deleted.char_count));
      return true;
    };
    return inTransaction(this.db, remove);
  }

  appendToDocument(documentId: string, segments: readonly Segment[], children: readonly ChildChunk[]) {
    return inTransaction(this.db, (db) => appendSegments(db, documentId, segments, children));
  }

  updateInDocument(documentId: string, segment: Segment, children?: readonly ChildChunk[]) {
    return inTransaction(this.db, (db) => updateSegment(db, documentId, segment, children));
  }

  findChildOfSegment(segmentId: string, childId: string) {
    return findChild(this.db, segmentId, childId);
  }

  appendChild(child: ChildChunk) {
    return appendChild(this.db, child);
  }

  updateChild(child: ChildChunk) {
    return updateChild(this.db, child);
  }

  deleteChild(segmentId: string, childId: string) {
    return deleteChild(this.db, segmentId, childId);
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

  async listOfDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentSegments>> {
    const unique = [...new Set(documentIds)];
    const read = new Map(
      unique.map((id): [string, DocumentSegments] => [id, { segments: [], children: [] }]),
    );
    if (unique.length === 0) return read;
    const positions = new Map<string, number>();
    for (const row of await segmentsOfDocuments(this.db, this.features, unique)) {
      const segment = segmentFromRow(row);
      positions.set(segment.id, segment.position);
      read.get(segment.documentId)?.segments.push(segment);
    }
    for (const row of await childrenOfDocuments(this.db, this.features, unique))
      read.get(row.document_id)?.children.push(childFromRow(row));
    const positionOf = (child: ChildChunk) => positions.get(child.segmentId) ?? 0;
    for (const { children } of read.values()) children.sort((a, b) => positionOf(a) - positionOf(b));
    return read;
  }

  async replaceForImport(
    documentId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
  ): Promise<string[]> {
    const write = async (db: Kysely<DatabaseSchema>) => {
      // The children go with their segments (on delete cascade). What an insert then finds under
      // one of its ids is another document's: left as it is, and not returned as written.
      await db.deleteFrom("chunks").where("document_id", "=", documentId).execute();
      const written = new Set<string>();
      for await (const batch of inBatches(segments)) {
        const rows = await db
          .insertInto("chunks")
          .values(batch.map(segmentToRow))
          .onConflict((conflict) => conflict.column("id").doNothing())
          .returning("id")
          .execute();
        for (const row of rows) written.add(row.id);
      }
      const placed = children.filter((child) => written.has(child.segmentId));
      const writtenChildren = new Set<string>();
      for await (const batch of inBatches(placed)) {
        const rows = await db
          .insertInto("child_chunks")
          .values(batch.map(childToRow))
          .onConflict((conflict) => conflict.column("id").doNothing())
          .returning("id")
          .execute();
        for (const row of rows) writtenChildren.add(row.id);
      }
      await indexSegments(
        db,
        documentId,
        segments.filter((segment) => written.has(segment.id)),
        placed.filter((child) => writtenChildren.has(child.id)),
      );
      return [
        ...segments.filter((segment) => !written.has(segment.id)),
        ...placed.filter((child) => !writtenChildren.has(child.id)),
      ].map((row) => row.id);
    };
    return inTransaction(this.db, write);
  }
}
