import type { ChildChunk, Segment, SegmentStatus } from "@service-api/domain";
import type { Insertable, Selectable } from "kysely";
import type { ChildChunkTable, ChunkTable } from "../schema.js";
import { fromFlag, toFlag } from "./rows.js";

export function segmentToRow(segment: Segment): Insertable<ChunkTable> {
  return {
    id: segment.id,
    document_id: segment.documentId,
    position: segment.position,
    content: segment.content,
    char_count: segment.wordCount,
    hit_count: segment.hitCount,
    answer: segment.answer,
    tokens: segment.tokens,
    keywords: JSON.stringify(segment.keywords),
    index_node_id: segment.indexNodeId,
    index_node_hash: segment.indexNodeHash,
    enabled: toFlag(segment.enabled),
    disabled_at: segment.disabledAt,
    disabled_by: segment.disabledBy,
    status: segment.status,
    created_by: segment.createdBy,
    created_at: segment.createdAt,
    updated_at: segment.updatedAt,
    updated_by: segment.updatedBy,
    indexing_at: segment.indexingAt,
    completed_at: segment.completedAt,
    error: segment.error,
    stopped_at: segment.stoppedAt,
  };
}

/** A segment from its row; rows stored before 0010/0018 have Dify's values for a completed one. */
export function segmentFromRow(row: Selectable<ChunkTable>): Segment {
  return {
    id: row.id,
    documentId: row.document_id,
    position: Number(row.position),
    content: row.content,
    hitCount: Number(row.hit_count),
    answer: row.answer,
    wordCount: Number(row.char_count),
    tokens: Number(row.tokens),
    keywords: row.keywords === null ? [] : (JSON.parse(row.keywords) as string[]),
    indexNodeId: row.index_node_id,
    indexNodeHash: row.index_node_hash,
    enabled: fromFlag(row.enabled),
    disabledAt: nullableNumber(row.disabled_at),
    disabledBy: row.disabled_by,
    status: row.status as SegmentStatus,
    createdBy: row.created_by,
    createdAt: nullableNumber(row.created_at),
    updatedAt: nullableNumber(row.updated_at),
    updatedBy: row.updated_by,
    indexingAt: nullableNumber(row.indexing_at),
    completedAt: nullableNumber(row.completed_at),
    error: row.error,
    stoppedAt: nullableNumber(row.stopped_at),
  };
}

export const childToRow = (child: ChildChunk): Insertable<ChildChunkTable> => ({
  id: child.id,
  segment_id: child.segmentId,
  document_id: child.documentId,
  position: child.position,
  content: child.content,
  word_count: child.wordCount,
  index_node_id: child.indexNodeId,
  index_node_hash: child.indexNodeHash,
  type: child.type,
  created_by: child.createdBy,
  created_at: child.createdAt,
  updated_at: child.updatedAt,
  updated_by: child.updatedBy,
});

export const childFromRow = (row: Selectable<ChildChunkTable>): ChildChunk => ({
  id: row.id,
  segmentId: row.segment_id,
  documentId: row.document_id,
  position: Number(row.position),
  content: row.content,
  wordCount: Number(row.word_count),
  indexNodeId: row.index_node_id,
  indexNodeHash: row.index_node_hash,
  type: row.type as ChildChunk["type"],
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  updatedBy: row.updated_by,
});

/** PostgreSQL's bigint comes as text. */
const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));
