import {
  BUILT_IN_FIELDS,
  type Dataset,
  ensureDatasetServesApi,
  StoreUnavailableError,
} from "@service-api/domain";
import type { Clock, DatasetRepository } from "@service-api/ports";
import { writeCheckingDataset } from "../datasets/open-dataset.js";
import { ensureBoolean, ensureInput } from "../input-checks.js";

/** Writes a toggle tries while its dataset keeps changing between serving the workspace and not. */
const ATTEMPTS = 3;

/** Get Built-in Metadata Fields: the five, constant, once the dataset is checked (`OpenDataset`). */
export class ListBuiltInFields {
  async execute(input: { dataset: Dataset }): Promise<typeof BUILT_IN_FIELDS> {
    ensureInput(input);
    ensureDatasetServesApi(input.dataset);
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
    ensureInput(input);
    const { workspaceId, datasetId, enabled } = input;
    ensureBoolean(enabled, "enabled");
    const now = this.clock.nowSeconds();
    const toggle = () => this.datasets.setBuiltInFieldEnabled(datasetId, enabled, now, workspaceId);
    const refused = (toggled: string) => toggled === "refused";
    // Refused each time while the dataset read between said it served: its API keeps turning on
    // and off. Nothing was written; the same request may succeed later.
    if (refused(await writeCheckingDataset(this.datasets, input, toggle, refused, ATTEMPTS))) {
      throw new StoreUnavailableError();
    }
  }
}
