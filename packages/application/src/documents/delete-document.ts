import { ArchivedDocumentImmutableError, lookupId, NotFoundError } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository } from "@service-api/ports";
import { checkedDataset, ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

/** A document flipping between archived and not as fast as it is deleted is refused after this many tries. */
const ATTEMPTS = 3;

/**
 * Delete Document: the document, its chunks and values, and its file unless another document uses
 * it, in one write that checks the dataset as it deletes; the dataset's and the fields' counts
 * follow at once. Archived documents are not editable (403); a document still indexing may go.
 */
export class DeleteDocument {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly datasets: DatasetRepository,
  ) {}

  async execute(input: { workspaceId: string; datasetId: string; documentId: string }): Promise<void> {
    ensureInput(input);
    const { workspaceId, datasetId } = input;
    ensureDatasetScope(input);
    const documentId = lookupId(input.documentId);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      // Deleted only while the dataset serves the workspace and the document is not archived;
      // only a refusal reads which answer it is, the dataset's (404, 403) first.
      if (await this.documents.delete(datasetId, documentId, { archived: false }, workspaceId)) return;
      await checkedDataset(this.datasets, input);
      const document = await this.documents.findInDataset(datasetId, documentId);
      if (!document) throw new NotFoundError("Document Not Exists.");
      if (document.archived) break;
    }
    throw new ArchivedDocumentImmutableError();
  }
}
