import { type DocForm, lookupId, NotFoundError } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, SegmentRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import type { SegmentWithChildren } from "./list-segments.js";
import { checkedDocument, type DocumentScope, SEGMENT_NOT_FOUND } from "./segment-scope.js";

/** Get Chunk: a document's segment, with its child chunks; another document's is not found. */
export class GetSegment {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly segments: SegmentRepository,
  ) {}

  async execute(
    input: DocumentScope & { segmentId: string },
  ): Promise<SegmentWithChildren & { docForm: DocForm }> {
    ensureInput(input);
    const document = await checkedDocument(this.datasets, this.documents, input);
    const segment = await this.segments.findInDocument(document.id, lookupId(input.segmentId));
    if (!segment) throw new NotFoundError(SEGMENT_NOT_FOUND);
    const children = await this.segments.listChildrenOf([segment.id]);
    return { segment, children: children.get(segment.id) ?? [], docForm: document.docForm };
  }
}
