import type { ChildChunkDraft } from "../chunking/drafts.js";
import type { ChildChunk, Segment } from "../document.js";
import { indexNodeHashOf, type SegmentWrite } from "./segment-edit.js";

/** Ids for a new child chunk: its own and its index node's. */
export interface ChildIds {
  id: string;
  indexNodeId: string;
}

function childOf(segment: Segment, content: string, ids: ChildIds, write: SegmentWrite): ChildChunk {
  return {
    id: ids.id,
    segmentId: segment.id,
    documentId: segment.documentId,
    position: 0,
    content,
    wordCount: [...content].length,
    indexNodeId: ids.indexNodeId,
    indexNodeHash: indexNodeHashOf(content, write),
    type: "customized",
    createdBy: write.actor,
    createdAt: write.now,
    updatedAt: write.now,
    updatedBy: null,
  };
}

/** The children a parent's rule makes of it (`splitChildChunks`): `automatic`, positions 1…n. */
export function automaticChildren(
  segment: Segment,
  drafts: readonly ChildChunkDraft[],
  ids: () => ChildIds,
  write: SegmentWrite,
): ChildChunk[] {
  return drafts.map((draft, index) => ({
    ...childOf(segment, draft.content, ids(), write),
    position: index + 1,
    indexNodeHash: write.sha256(draft.hashSource),
    type: "automatic",
  }));
}

/** A child chunk a caller adds: `customized`, its position the store's to set. */
export const newChildChunk = (segment: Segment, content: string, ids: ChildIds, write: SegmentWrite) =>
  childOf(segment, content, ids, write);

/** A child chunk a caller rewrites: its new content, hashed and counted, `customized` from now on. */
export function editChildChunk(before: ChildChunk, content: string, write: SegmentWrite): ChildChunk {
  return {
    ...before,
    content,
    wordCount: [...content].length,
    indexNodeHash: indexNodeHashOf(content, write),
    type: "customized",
    updatedAt: write.now,
    updatedBy: write.actor,
  };
}
