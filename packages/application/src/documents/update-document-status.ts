import {
  type DocumentStatusAction,
  ensureDatasetServesApi,
  ensureStatusActionAllowed,
  isPossibleId,
  parseDocumentStatusAction,
  StoreUnavailableError,
  statusActionChanges,
  statusPatch,
} from "@service-api/domain";
import type { Clock, DocumentRepository, Store } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput, ensureList } from "../input-checks.js";

export interface UpdateDocumentStatusInput {
  workspaceId: string;
  /** Checked here (404, 403) after the action and the list: read with the documents. */
  datasetId: string;
  /** One of the four, exactly; any other is `invalid_action`. */
  action: DocumentStatusAction;
  /** Ids not of the dataset are skipped; repeats count once. */
  documentIds: readonly string[];
}

/**
 * Update Document Status: enables, disables, archives or un-archives documents, as the workspace's
 * owner. Disabling needs every document completed (else nothing changes); a document already in the
 * action's state is left alone, `updatedAt` included. First one read and one write, which holds only
 * while the documents are as read; when a concurrent change beat it, again under the dataset's lock,
 * where nothing can change them between the read and the write.
 */
export class UpdateDocumentStatus {
  constructor(
    private readonly store: Pick<Store, "repositories" | "transaction">,
    private readonly clock: Clock,
  ) {}

  async execute(input: UpdateDocumentStatusInput): Promise<void> {
    ensureInput(input);
    const action = parseDocumentStatusAction(input.action);
    ensureList(input.documentIds, "document_ids");
    ensureDatasetScope(input);
    // An id that can name nothing is no document of the dataset: skipped, as those are.
    const request = { ...input, action, documentIds: input.documentIds.filter(isPossibleId) };
    if (await this.#attempt(this.store.repositories.documents, request)) return;
    await this.store.transaction(async ({ datasets, documents }) => {
      await datasets.lockForUpdate(request.datasetId);
      // Every status write takes this lock first, so the documents stay as read: false is a defect.
      if (!(await this.#attempt(documents, request))) throw new StoreUnavailableError();
    });
  }

  /** Whether the update was made (or had nothing to change); false when the documents changed meanwhile. */
  async #attempt(
    documents: DocumentRepository,
    { workspaceId, datasetId, action, documentIds }: UpdateDocumentStatusInput,
  ): Promise<boolean> {
    const found = await documents.findForStatusUpdate(workspaceId, datasetId, documentIds);
    ensureDatasetServesApi(found.dataset);
    const byId = new Map(found.documents.map((document) => [document.id, document]));
    const read = [...new Set(documentIds)].flatMap((id) => byId.get(id) ?? []);
    for (const document of read) ensureStatusActionAllowed(document, action);
    const changing = read.filter((document) => statusActionChanges(document, action)).map(({ id }) => id);
    if (changing.length === 0) return true;
    const patch = statusPatch(action, found.ownerId, this.clock.nowSeconds());
    return documents.updateStatus(datasetId, { read, changing, patch });
  }
}
