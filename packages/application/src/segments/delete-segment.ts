import { lookupId, NotFoundError } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { checkedDocument, type DocumentScope, SEGMENT_NOT_FOUND } from "./segment-scope.js";

/**
 * Delete Chunk: a document's segment and its child chunks, its words taken off the document's and
 * the dataset's counts, in one transaction that takes the dataset first (as indexing does, so a
 * publish and a delete never wait on each other in turn).
 */
export class DeleteSegment {
  constructor(private readonly store: Store) {}

  async execute(input: DocumentScope & { segmentId: string }): Promise<void> {
    ensureInput(input);
    const segmentId = lookupId(input.segmentId);
    await this.store.transaction(async ({ datasets, documents, segments }) => {
      const document = await checkedDocument(datasets, documents, input);
      await datasets.lockForUpdate(document.datasetId);
      if (!(await segments.deleteInDocument(document.id, segmentId)))
        throw new NotFoundError(SEGMENT_NOT_FOUND);
    });
  }
}
