import {
  applyStatusAction,
  type Dataset,
  type DocumentStatusAction,
  ensureStatusActionAllowed,
} from "@service-api/domain";
import type { Clock, Store } from "@service-api/ports";

export interface UpdateDocumentStatusInput {
  dataset: Dataset;
  action: DocumentStatusAction;
  /** Ids not of the dataset are skipped; repeats count once. */
  documentIds: readonly string[];
}

/**
 * Update Document Status: enables, disables, archives or un-archives documents, as the workspace's
 * owner. Disabling needs every document completed (else nothing changes); a document already in the
 * action's state is left alone, `updatedAt` included.
 */
export class UpdateDocumentStatus {
  constructor(
    private readonly store: Pick<Store, "transaction">,
    private readonly clock: Clock,
  ) {}

  async execute({ dataset, action, documentIds }: UpdateDocumentStatusInput): Promise<void> {
    const now = this.clock.nowSeconds();
    await this.store.transaction(async ({ datasets, documents, workspaces }) => {
      await datasets.lockForUpdate(dataset.id);
      const found = new Map(
        (await documents.findManyInDataset(dataset.id, documentIds)).map((document) => [
          document.id,
          document,
        ]),
      );
      const inOrder = [...new Set(documentIds)].flatMap((id) => found.get(id) ?? []);
      for (const document of inOrder) ensureStatusActionAllowed(document, action);
      const actor = (await workspaces.findOwner(dataset.workspaceId))?.id ?? null;
      for (const document of inOrder) {
        const changed = applyStatusAction(document, action, actor, now);
        if (changed) await documents.save(changed);
      }
    });
  }
}
