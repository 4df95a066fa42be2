import { ensureDatasetServesApi } from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import type { DatasetView } from "./dataset-view.js";
import { ensureDatasetScope } from "./open-dataset.js";

export interface GetDatasetInput {
  workspaceId: string;
  datasetId: string;
}

/** Get Dataset: one dataset object, after the dataset checks (404, 403), in one read. */
export class GetDataset {
  constructor(private readonly datasets: DatasetRepository) {}

  async execute(input: GetDatasetInput): Promise<DatasetView> {
    ensureInput(input);
    ensureDatasetScope(input);
    const overview = await this.datasets.findOverview(input.workspaceId, input.datasetId);
    ensureDatasetServesApi(overview?.dataset);
    return overview!;
  }
}
