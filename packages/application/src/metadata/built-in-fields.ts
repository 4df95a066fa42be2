import { BUILT_IN_FIELDS, type Dataset } from "@service-api/domain";
import type { Clock, DatasetRepository } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";

/** Get Built-in Metadata Fields: the five, constant, once the dataset is checked. */
export class ListBuiltInFields {
  async execute(_input: { dataset: Dataset }): Promise<typeof BUILT_IN_FIELDS> {
    return BUILT_IN_FIELDS;
  }
}

/**
 * Toggle Built-in Metadata Fields: shows or hides the five built-ins in List Metadata Fields,
 * every `doc_metadata` and the dataset object, at once (they are derived on read). One write that
 * checks the dataset as it writes; the dataset (404, 403) is read only on refusal.
 */
export class ToggleBuiltInFields {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { workspaceId: string; datasetId: string; enabled: boolean }): Promise<void> {
    const { workspaceId, datasetId, enabled } = input;
    const now = this.clock.nowSeconds();
    if ((await this.datasets.setBuiltInFieldEnabled(datasetId, enabled, now, workspaceId)) !== "refused")
      return;
    await checkedDataset(this.datasets, input);
    // It serves the workspace now (its API was turned on in between): the toggle, as checked.
    await this.datasets.setBuiltInFieldEnabled(datasetId, enabled, now);
  }
}
