import {
  type ChildChunk,
  editChildChunk,
  InvalidParamError,
  lookupId,
  NotFoundError,
  newChildChunk,
  readContent,
} from "@service-api/domain";
import type { DocumentScope } from "./segment-scope.js";
import {
  ensureNoEmbedding,
  inSegmentWrite,
  type SegmentWriting,
  segmentIn,
  type WriteScope,
} from "./segment-writing.js";

export const CHILD_CHUNK_NOT_FOUND = "Child chunk not found.";
export const CHILDREN_ONLY_IN_HIERARCHY =
  "Child chunks belong to the segments of a parent-child (hierarchical_model) document.";

/** Where a child chunk operation works: a segment of a document. */
export interface SegmentScope extends DocumentScope {
  segmentId: string;
}

/** A child chunk's body, `{content}`: text that is not blank. */
function contentOf(body: unknown): string {
  const content =
    typeof body === "object" && body !== null ? (body as { content?: unknown }).content : undefined;
  return readContent(content);
}

async function childIn(scope: WriteScope, segmentId: string, childId: string): Promise<ChildChunk> {
  const child = await scope.repositories.segments.findChildOfSegment(segmentId, lookupId(childId));
  if (!child) throw new NotFoundError(CHILD_CHUNK_NOT_FOUND);
  return child;
}

/**
 * Add Child Chunk: after the segment's last, `customized`, in Dify's order of checks (the dataset,
 * the document, the segment, the model, then the body). Unlike Dify, only a parent-child
 * document's segments take children (another form's would never be shown with its segment).
 */
export class CreateChildChunk {
  constructor(private readonly writing: SegmentWriting) {}

  async execute(input: SegmentScope & { body: unknown }): Promise<ChildChunk> {
    return inSegmentWrite(this.writing, input, async (scope) => {
      const segment = await segmentIn(scope, input.segmentId);
      ensureNoEmbedding(scope.dataset);
      if (scope.document.docForm !== "hierarchical_model")
        throw new InvalidParamError("segment_id", CHILDREN_ONLY_IN_HIERARCHY);
      const { ids } = this.writing;
      const child = newChildChunk(
        segment,
        contentOf(input.body),
        { id: ids.next(), indexNodeId: ids.next() },
        scope.write,
      );
      return scope.repositories.segments.appendChild(child);
    });
  }
}

/** Update Child Chunk: its new content, `customized` from then on (the dataset, document, segment, child chunk, then the body). */
export class UpdateChildChunk {
  constructor(private readonly writing: SegmentWriting) {}

  async execute(input: SegmentScope & { childChunkId: string; body: unknown }): Promise<ChildChunk> {
    return inSegmentWrite(this.writing, input, async (scope) => {
      const segment = await segmentIn(scope, input.segmentId);
      const before = await childIn(scope, segment.id, input.childChunkId);
      const content = contentOf(input.body);
      ensureNoEmbedding(scope.dataset);
      const child = editChildChunk(before, content, scope.write);
      await scope.repositories.segments.updateChild(child);
      return child;
    });
  }
}

/** Delete Child Chunk: the segment's child chunk, nothing else (the dataset, document, segment, child chunk). */
export class DeleteChildChunk {
  constructor(private readonly writing: SegmentWriting) {}

  async execute(input: SegmentScope & { childChunkId: string }): Promise<void> {
    await inSegmentWrite(this.writing, input, async (scope) => {
      const segment = await segmentIn(scope, input.segmentId);
      const child = await childIn(scope, segment.id, input.childChunkId);
      await scope.repositories.segments.deleteChild(segment.id, child.id);
    });
  }
}
