import {
  type ChildChunk,
  type DocForm,
  isStorableText,
  type PageRequest,
  type Segment,
} from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, SegmentRepository } from "@service-api/ports";
import { ensureInput, ensureOptionalText } from "../input-checks.js";
import { checkedDocument, type DocumentScope } from "./segment-scope.js";

export interface ListSegmentsInput extends DocumentScope {
  page: PageRequest;
  /** Only segments of these statuses; none or empty for every one. */
  statuses?: readonly string[];
  /** A substring of the content (ASCII letters in either case); undefined for every segment. */
  keyword?: string;
}

/** A segment as the chunks API shows it: with its child chunks. */
export interface SegmentWithChildren {
  segment: Segment;
  children: ChildChunk[];
}

export interface SegmentPage {
  segments: SegmentWithChildren[];
  total: number;
  page: number;
  limit: number;
  /** `page × limit < total` (Dify PR #41776). */
  hasMore: boolean;
  docForm: DocForm;
}

/**
 * List Chunks: a page of a document's segments by position, with their child chunks, filtered by
 * status and by a substring of the content; Dify's newest pagination (the limit as served, and
 * `has_more` from the total).
 */
export class ListSegments {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly segments: SegmentRepository,
  ) {}

  async execute(input: ListSegmentsInput): Promise<SegmentPage> {
    ensureInput(input);
    ensureOptionalText(input.keyword, "keyword");
    const document = await checkedDocument(this.datasets, this.documents, input);
    const { page, limit } = input.page;
    const answer = (segments: SegmentWithChildren[], total: number): SegmentPage => ({
      segments,
      total,
      page,
      limit,
      hasMore: page * limit < total,
      docForm: document.docForm,
    });
    // Text no store can hold is in no segment.
    if (input.keyword !== undefined && !isStorableText(input.keyword)) return answer([], 0);
    const found = await this.segments.listPageOfDocument(
      document.id,
      { statuses: input.statuses, keyword: input.keyword },
      (page - 1) * limit,
      limit,
    );
    const children = await this.segments.listChildrenOf(found.segments.map((segment) => segment.id));
    return answer(
      found.segments.map((segment) => ({ segment, children: children.get(segment.id) ?? [] })),
      found.total,
    );
  }
}
