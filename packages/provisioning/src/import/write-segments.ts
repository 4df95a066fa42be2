import { type ChildChunk, codePointLength, type Segment } from "@service-api/domain";
import type { DocumentInput } from "../format/import-file-schema.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";

type SegmentInput = DocumentInput["segments"][number];

/** A segment's `word_count`, as Dify counts it: the code points of its content and its answer. */
export const segmentWordCount = (segment: Pick<SegmentInput, "content" | "answer">): number =>
  codePointLength(segment.content) + (segment.answer === null ? 0 : codePointLength(segment.answer));

/**
 * Makes the file's segments and their child chunks the document's only ones, in the file's order;
 * a segment or child chunk whose id another document holds is refused at its path.
 */
export async function writeSegments(
  input: DocumentInput,
  document: { id: string; createdAt: number },
  at: string,
  { repositories, refuse }: WriteContext,
): Promise<void> {
  const segments: Segment[] = [];
  const children: ChildChunk[] = [];
  for (const [index, segment] of input.segments.entries()) {
    segments.push(segmentFromInput(segment, document.id, index + 1));
    // A child's times default to its segment's, else its document's: the same file, the same rows.
    const createdAt = segment.created_at ?? document.createdAt;
    for (const [position, child] of segment.child_chunks.entries())
      children.push(childFromInput(child, segment.id!, document.id, position + 1, createdAt));
  }
  const refused = new Set(await repositories.segments.replaceForImport(document.id, segments, children));
  for (const [s, segment] of input.segments.entries()) {
    const segmentAt = `${at}.segments[${s}]`;
    if (refused.has(segment.id!)) {
      refuse(segmentAt, heldElsewhere(segment.id!, "another document's segment"));
      continue;
    }
    for (const [c, child] of segment.child_chunks.entries()) {
      if (refused.has(child.id!))
        refuse(`${segmentAt}.child_chunks[${c}]`, heldElsewhere(child.id!, "another document's child chunk"));
    }
  }
}

function segmentFromInput(segment: SegmentInput, documentId: string, position: number): Segment {
  return {
    id: segment.id!,
    documentId,
    position,
    content: segment.content,
    hitCount: segment.hit_count,
    answer: segment.answer,
    wordCount: segmentWordCount(segment),
    tokens: segment.tokens,
    keywords: segment.keywords,
    indexNodeId: segment.index_node_id,
    indexNodeHash: segment.index_node_hash,
    enabled: segment.enabled,
    disabledAt: segment.disabled_at,
    disabledBy: segment.disabled_by,
    status: segment.status,
    createdBy: segment.created_by,
    createdAt: segment.created_at,
    updatedAt: segment.updated_at,
    updatedBy: segment.updated_by,
    indexingAt: segment.indexing_at,
    completedAt: segment.completed_at,
    error: segment.error,
    stoppedAt: segment.stopped_at,
  };
}

function childFromInput(
  child: SegmentInput["child_chunks"][number],
  segmentId: string,
  documentId: string,
  position: number,
  defaultCreatedAt: number,
): ChildChunk {
  const createdAt = child.created_at ?? defaultCreatedAt;
  return {
    id: child.id!,
    segmentId,
    documentId,
    position,
    content: child.content,
    wordCount: codePointLength(child.content),
    indexNodeId: child.index_node_id,
    indexNodeHash: child.index_node_hash,
    type: child.type,
    createdBy: child.created_by,
    createdAt,
    updatedAt: child.updated_at ?? createdAt,
    updatedBy: child.updated_by,
  };
}
