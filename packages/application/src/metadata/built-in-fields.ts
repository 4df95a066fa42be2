import { BUILT_IN_FIELDS, type Dataset } from "@service-api/domain";
import type { Clock, DatasetRepository } from "@service-api/ports";

/** Get Built-in Metadata Fields: the five, constant, once the dataset is checked. */
export class ListBuiltInFields {
  async execute(_input: { dataset: Dataset }): Promise<typeof BUILT_IN_FIELDS> {
    return BUILT_IN_FIELDS;
  }
}

/**
 * Toggle Built-in Metadata Fields: shows or hides the five built-ins in List Metadata Fields,
 * every `doc_metadata` and the dataset object, at once (they are derived on read).
 */
export class ToggleBuiltInFields {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ dataset, enabled }: { dataset: Dataset; enabled: boolean }): Promise<void> {
    await this.datasets.setBuiltInFieldEnabled(dataset.id, enabled, this.clock.nowSeconds());
  }
}
