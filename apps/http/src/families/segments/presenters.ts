import type { SegmentWithChildren } from "@service-api/application";
import type { ChildChunk } from "@service-api/domain";
import type { z } from "zod";
import type { childChunk, segment } from "./schemas.js";

export const presentChildChunk = (child: ChildChunk): z.output<typeof childChunk> => ({
  id: child.id,
  segment_id: child.segmentId,
  content: child.content,
  position: child.position,
  word_count: child.wordCount,
  type: child.type,
  created_at: child.createdAt,
  updated_at: child.updatedAt,
});

/** A segment in Dify's field order, its child chunks with it. */
export function presentSegment({ segment: s, children }: SegmentWithChildren): z.output<typeof segment> {
  return {
    id: s.id,
    position: s.position,
    document_id: s.documentId,
    content: s.content,
    sign_content: s.content,
    answer: s.answer,
    word_count: s.wordCount,
    tokens: s.tokens,
    keywords: s.keywords,
    index_node_id: s.indexNodeId,
    index_node_hash: s.indexNodeHash,
    hit_count: s.hitCount,
    enabled: s.enabled,
    disabled_at: s.disabledAt,
    disabled_by: s.disabledBy,
    status: s.status,
    created_by: s.createdBy,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    updated_by: s.updatedBy,
    indexing_at: s.indexingAt,
    completed_at: s.completedAt,
    error: s.error,
    stopped_at: s.stoppedAt,
    child_chunks: children.map(presentChildChunk),
    attachments: [],
    summary: null,
  };
}
