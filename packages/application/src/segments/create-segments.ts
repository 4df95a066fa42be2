import { type DocForm, NotFoundError, newSegment, readSegmentDrafts } from "@service-api/domain";
import type { SegmentWithChildren } from "./list-segments.js";
import type { DocumentScope } from "./segment-scope.js";
import {
  childrenByRule,
  ensureNoEmbedding,
  inSegmentWrite,
  keywordsFor,
  type SegmentWriting,
} from "./segment-writing.js";

export const DOCUMENT_NOT_COMPLETED = "Document is not completed.";
export const DOCUMENT_DISABLED = "Document is disabled.";

export interface CreateSegmentsInput extends DocumentScope {
  /** The body's `segments`, as sent: checked here, after the document. */
  segments: unknown;
}

/**
 * Add Chunks: segments a caller writes, after the document's last, in Dify's order of checks (the
 * dataset, the document, completed, enabled, the model, then the body). A hierarchical document's
 * parents get their children by the document's rule; a segment sent without keywords gets its
 * best terms by TF-IDF over the dataset (`extractKeywords`). All are written in one transaction, with
 * their words on the document's and the dataset's counts, or none is.
 */
export class CreateSegments {
  constructor(
    private readonly writing: SegmentWriting,
    /** DATASET_MAX_SEGMENTS_PER_REQUEST: at most this many in one call; 0 for no limit. */
    private readonly maxPerRequest: number,
  ) {}

  async execute(input: CreateSegmentsInput): Promise<{ segments: SegmentWithChildren[]; docForm: DocForm }> {
    return inSegmentWrite(this.writing, input, async (scope) => {
      const { dataset, document, repositories, write } = scope;
      if (document.indexingStatus !== "completed") throw new NotFoundError(DOCUMENT_NOT_COMPLETED);
      if (!document.enabled) throw new NotFoundError(DOCUMENT_DISABLED);
      ensureNoEmbedding(dataset);
      const drafts = readSegmentDrafts(input.segments, document.docForm, this.maxPerRequest);
      const { ids } = this.writing;
      const made: SegmentWithChildren[] = [];
      for (const given of drafts) {
        const draft = given.keywords
          ? given
          : { ...given, keywords: await keywordsFor(scope, given.content) };
        const segment = newSegment(
          draft,
          { id: ids.next(), indexNodeId: ids.next(), documentId: document.id },
          document.docForm,
          write,
        );
        made.push({ segment, children: childrenByRule(scope, segment, ids) });
      }
      const stored = await repositories.segments.appendToDocument(
        document.id,
        made.map(({ segment }) => segment),
        made.flatMap(({ children }) => children),
      );
      return {
        segments: stored.map((segment, index) => ({ segment, children: made[index]!.children })),
        docForm: document.docForm,
      };
    });
  }
}
