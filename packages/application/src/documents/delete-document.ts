import { ArchivedDocumentImmutableError, type Dataset, NotFoundError } from "@service-api/domain";
import type { Store } from "@service-api/ports";

/**
 * Delete Document: the document, its chunks and values, and its file unless another document uses
 * it, in one transaction; the dataset's and the fields' counts follow at once. Archived documents
 * are not editable (403); a document still indexing may go.
 */
export class DeleteDocument {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute({ dataset, documentId }: { dataset: Dataset; documentId: string }): Promise<void> {
    await this.store.transaction(async ({ datasets, documents }) => {
      // The dataset first, as every write to its documents: one lock order, no deadlock.
      await datasets.lockForUpdate(dataset.id);
      const document = await documents.findInDataset(dataset.id, documentId);
      if (!document) throw new NotFoundError("Document Not Exists.");
      if (document.archived) throw new ArchivedDocumentImmutableError();
      if (!(await documents.delete(document.id))) throw new NotFoundError("Document Not Exists.");
    });
  }
}
