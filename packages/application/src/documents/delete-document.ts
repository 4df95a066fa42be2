import { ArchivedDocumentImmutableError, type Dataset, NotFoundError } from "@service-api/domain";
import type { DocumentRepository } from "@service-api/ports";

/** A document flipping between archived and not as fast as it is deleted is refused after this many tries. */
const ATTEMPTS = 3;

/**
 * Delete Document: the document, its chunks and values, and its file unless another document uses
 * it, in one write; the dataset's and the fields' counts follow at once. Archived documents are
 * not editable (403); a document still indexing may go.
 */
export class DeleteDocument {
  constructor(private readonly documents: DocumentRepository) {}

  async execute({ dataset, documentId }: { dataset: Dataset; documentId: string }): Promise<void> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      // Deleted only while not archived; only a refusal reads which answer it is.
      if (await this.documents.delete(dataset.id, documentId, { archived: false })) return;
      const document = await this.documents.findInDataset(dataset.id, documentId);
      if (!document) throw new NotFoundError("Document Not Exists.");
      if (document.archived) break;
    }
    throw new ArchivedDocumentImmutableError();
  }
}
