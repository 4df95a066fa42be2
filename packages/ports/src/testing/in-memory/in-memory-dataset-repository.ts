import type { Dataset } from "@service-api/domain";
import type { DatasetRepository } from "../../dataset-repository.js";

export class InMemoryDatasetRepository implements DatasetRepository {
  readonly #datasets = new Map<string, Dataset>();

  async save(dataset: Dataset): Promise<void> {
    this.#datasets.set(dataset.id, structuredClone(dataset));
  }

  async findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined> {
    const dataset = this.#datasets.get(datasetId);
    return dataset?.workspaceId === workspaceId ? structuredClone(dataset) : undefined;
  }
}
