import { type Dataset, ensureDatasetServesApi } from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";

export interface OpenDatasetInput {
  workspaceId: string;
  datasetId: string;
}

/**
 * The dataset a knowledge operation names, once it is known to serve the API: the workspace's,
 * else 404 "Dataset not found."; with `enable_api`, else 403. Operations on a dataset take what
 * this returns, so that the dataset is checked before their query and body, as the reference does.
 */
export class OpenDataset {
  constructor(private readonly datasets: DatasetRepository) {}

  execute(input: OpenDatasetInput): Promise<Dataset> {
    return checkedDataset(this.datasets, input);
  }
}

/** The workspace's dataset once it serves the API: else 404 "Dataset not found.", or 403. */
export async function checkedDataset(
  datasets: DatasetRepository,
  { workspaceId, datasetId }: OpenDatasetInput,
): Promise<Dataset> {
  return ensureDatasetServesApi(await datasets.findInWorkspace(workspaceId, datasetId));
}

/**
 * For a request refused without its dataset read (a write that checks the dataset as it writes,
 * `ServedTo`, or a check made before that write): throws the dataset's own error (404, 403) if it
 * has one, else `error`. The dataset is read only on refusal, and its errors still come first.
 */
export async function refusedAfterDataset(
  datasets: DatasetRepository,
  scope: OpenDatasetInput,
  error: unknown,
): Promise<never> {
  await checkedDataset(datasets, scope);
  throw error;
}
