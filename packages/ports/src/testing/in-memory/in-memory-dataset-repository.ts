import type { Dataset } from "@service-api/domain";
import type { DatasetRepository } from "../../dataset-repository.js";
import { byCreation, type Snapshotting } from "./snapshotting.js";

export class InMemoryDatasetRepository implements DatasetRepository, Snapshotting {
  #datasets = new Map<string, Dataset>();

  snapshot(): unknown {
    return structuredClone(this.#datasets);
  }

  restore(snapshot: unknown): void {
    this.#datasets = snapshot as Map<string, Dataset>;
  }

  async listInWorkspace(workspaceId: string): Promise<Dataset[]> {
    const datasets = [...this.#datasets.values()].filter((dataset) => dataset.workspaceId === workspaceId);
    return structuredClone(datasets.sort(byCreation));
  }

  async save(dataset: Dataset): Promise<void> {
    this.#datasets.set(dataset.id, structuredClone(dataset));
  }

  async findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined> {
    const dataset = this.#datasets.get(datasetId);
    return dataset?.workspaceId === workspaceId ? structuredClone(dataset) : undefined;
  }
}
