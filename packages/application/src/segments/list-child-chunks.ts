import {
  type ChildChunk,
  isStorableText,
  lookupId,
  NotFoundError,
  type PageRequest,
} from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, SegmentRepository } from "@service-api/ports";
import { ensureInput, ensureOptionalText } from "../input-checks.js";
import { checkedDocument, type DocumentScope, SEGMENT_NOT_FOUND } from "./segment-scope.js";

export interface ChildChunkPage {
  children: ChildChunk[];
  total: number;
  /** `ceil(total / limit)`, as Dify answers it. */
  totalPages: number;
  page: number;
  limit: number;
}

/** List Child Chunks: a page of a segment's child chunks by position, filtered by a substring. */
export class ListChildChunks {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly segments: SegmentRepository,
  ) {}

  async execute(
    input: DocumentScope & { segmentId: string; page: PageRequest; keyword?: string },
  ): Promise<ChildChunkPage> {
    ensureInput(input);
    ensureOptionalText(input.keyword, "keyword");
    const document = await checkedDocument(this.datasets, this.documents, input);
    const segment = await this.segments.findInDocument(document.id, lookupId(input.segmentId));
    if (!segment) throw new NotFoundError(SEGMENT_NOT_FOUND);
    const { page, limit } = input.page;
    const found =
      input.keyword !== undefined && !isStorableText(input.keyword)
        ? { children: [], total: 0 }
        : await this.segments.listChildPageOfSegment(segment.id, input.keyword, (page - 1) * limit, limit);
    return { ...found, totalPages: Math.ceil(found.total / limit), page, limit };
  }
}
