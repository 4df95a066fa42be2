import { ensureDatasetServesApi } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import { type DatasetView, datasetViews } from "./dataset-view.js";

export interface GetDatasetInput {
  workspaceId: string;
  datasetId: string;
}

/** Get Dataset: one dataset object, after the dataset checks (404, 403). */
export class GetDataset {
  constructor(private readonly repositories: Pick<Repositories, "datasets" | "tags" | "metadata">) {}

  async execute(input: GetDatasetInput): Promise<DatasetView> {
    const overview = await this.repositories.datasets.findOverview(input.workspaceId, input.datasetId);
    ensureDatasetServesApi(overview?.dataset);
    const [view] = await datasetViews([overview!], this.repositories);
    return view!;
  }
}
