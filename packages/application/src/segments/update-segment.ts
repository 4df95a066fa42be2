import { type DocForm, editSegment, readSegmentChange } from "@service-api/domain";
import type { SegmentWithChildren } from "./list-segments.js";
import type { DocumentScope } from "./segment-scope.js";
import {
  childrenByRule,
  ensureNoEmbedding,
  inSegmentWrite,
  keywordsFor,
  type SegmentWriting,
  segmentIn,
} from "./segment-writing.js";

export interface UpdateSegmentInput extends DocumentScope {
  segmentId: string;
  /** The body's `segment`, as sent: checked here, after the segment. */
  segment: unknown;
}

/**
 * Update Chunk, as Dify's `update_segment` (`editSegment`): checks in Dify's order (the dataset,
 * the model, the document, the segment, then the body); `regenerate_child_chunks` re-splits a
 * hierarchical parent by its document's rule, else its children stay; new content without keywords
 * sent gets its best terms by TF-IDF over the dataset. One transaction moves the
 * document's and the dataset's word counts with it.
 */
export class UpdateSegment {
  constructor(private readonly writing: SegmentWriting) {}

  async execute(input: UpdateSegmentInput): Promise<SegmentWithChildren & { docForm: DocForm }> {
    return inSegmentWrite(
      this.writing,
      input,
      async (scope) => {
        const { document, repositories, write } = scope;
        const before = await segmentIn(scope, input.segmentId);
        const change = readSegmentChange(input.segment, document.docForm);
        const edit = editSegment(before, change, document.docForm, write);
        if (edit.kind === "edited" && edit.contentChanged && !change.keywords?.length)
          edit.segment.keywords = await keywordsFor(scope, edit.segment.content);
        const regenerated =
          edit.kind === "edited" && change.regenerateChildChunks && document.docForm === "hierarchical_model"
            ? childrenByRule(scope, edit.segment, this.writing.ids)
            : undefined;
        await repositories.segments.updateInDocument(document.id, edit.segment, regenerated);
        const children =
          regenerated ?? (await repositories.segments.listChildrenOf([before.id])).get(before.id) ?? [];
        return { segment: edit.segment, children, docForm: document.docForm };
      },
      ensureNoEmbedding,
    );
  }
}
