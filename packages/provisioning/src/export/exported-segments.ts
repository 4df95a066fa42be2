import type { ChildChunk, Segment } from "@service-api/domain";
import type { DocumentSegments } from "@service-api/ports";
import type { ImportFileInput } from "../format/import-file-schema.js";

type DocumentInput = NonNullable<
  NonNullable<ImportFileInput["workspaces"][number]["datasets"]>[number]["documents"]
>[number];
export type SegmentOutput = NonNullable<DocumentInput["segments"]>[number];
type ChildChunkOutput = NonNullable<SegmentOutput["child_chunks"]>[number];

/**
 * A document's segments in their order, each with its child chunks in theirs. Every field is
 * written but `word_count`, which the import counts; positions are the order.
 */
export function segmentsOutput({ segments, children }: DocumentSegments): SegmentOutput[] {
  const childrenOf = new Map<string, ChildChunkOutput[]>();
  // `children` come in their segments' order, then their own: each segment's keep theirs.
  for (const child of children) {
    const ofSegment = childrenOf.get(child.segmentId) ?? [];
    ofSegment.push(childOutput(child));
    childrenOf.set(child.segmentId, ofSegment);
  }
  return segments.map((segment) => segmentOutput(segment, childrenOf.get(segment.id) ?? []));
}

const segmentOutput = (segment: Segment, children: ChildChunkOutput[]): SegmentOutput => ({
  id: segment.id,
  content: segment.content,
  answer: segment.answer,
  hit_count: segment.hitCount,
  tokens: segment.tokens,
  keywords: segment.keywords,
  index_node_id: segment.indexNodeId,
  index_node_hash: segment.indexNodeHash,
  enabled: segment.enabled,
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
  child_chunks: children,
});

const childOutput = (child: ChildChunk): ChildChunkOutput => ({
  id: child.id,
  content: child.content,
  index_node_id: child.indexNodeId,
  index_node_hash: child.indexNodeHash,
  type: child.type,
  created_by: child.createdBy,
  created_at: child.createdAt,
  updated_at: child.updatedAt,
  updated_by: child.updatedBy,
});
