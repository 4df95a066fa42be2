import { DATASET_NOT_FOUND, NotFoundError } from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { checkedDataset } from "./open-dataset.js";

export interface DeleteDatasetInput {
  workspaceId: string;
  datasetId: string;
}

/**
 * Delete Dataset: after the dataset checks (404, 403), the dataset and all under it leave every
 * read at once, in one transaction whatever its size: it moves to the trash, its tag bindings go,
 * and a job to purge its rows is queued with it (`PurgeDeletedDataset`, run by a background worker).
 */
export class DeleteDataset {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: DeleteDatasetInput): Promise<void> {
    ensureInput(input);
    const { workspaceId, datasetId } = input;
    await this.store.transaction(async ({ datasets, jobs }) => {
      await checkedDataset(datasets, input);
      await datasets.lockForUpdate(datasetId);
      if (!(await datasets.moveToTrash(workspaceId, datasetId))) throw new NotFoundError(DATASET_NOT_FOUND);
      const now = this.clock.nowMilliseconds();
      await jobs.enqueue({
        id: this.ids.next(),
        kind: "purge_dataset",
        subjectId: datasetId,
        runAfter: now,
        createdAt: now,
      });
    });
  }
}
