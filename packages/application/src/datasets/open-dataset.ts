import {
  DATASET_NOT_FOUND,
  type Dataset,
  ensureDatasetServesApi,
  isPossibleId,
  NotFoundError,
} from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";

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

  async execute(input: OpenDatasetInput): Promise<Dataset> {
    ensureInput(input);
    return checkedDataset(this.datasets, input);
  }
}

/** Ids that can name nothing name no dataset: "Dataset not found.", before anything is read or written. */
export function ensureDatasetScope({ workspaceId, datasetId }: OpenDatasetInput): void {
  if (!isPossibleId(workspaceId) || !isPossibleId(datasetId)) throw new NotFoundError(DATASET_NOT_FOUND);
}

/** The workspace's dataset once it serves the API: else 404 "Dataset not found.", or 403. */
export async function checkedDataset(datasets: DatasetRepository, scope: OpenDatasetInput): Promise<Dataset> {
  ensureDatasetScope(scope);
  return ensureDatasetServesApi(await datasets.findInWorkspace(scope.workspaceId, scope.datasetId));
}

/**
 * Runs a check of the request's own made before its write (a name rule): if it throws, the
 * dataset's own error (404, 403) wins, so the dataset's errors still come first though it is read
 * only then.
 */
export async function checkAfterDataset(
  datasets: DatasetRepository,
  scope: OpenDatasetInput,
  check: () => void,
): Promise<void> {
  try {
    check();
  } catch (error) {
    await checkedDataset(datasets, scope);
    throw error;
  }
}

/**
 * Runs a write that checks its dataset as it writes (`ServedTo`), reading the dataset only when
 * the write is `refused`: its 404 or 403 then wins. A dataset that serves the workspace after all
 * (its API turned on in between) has the write tried again, checked the same way, up to `attempts`
 * writes in all; the last answer is then the write's own (a taken name, a missing field).
 */
export async function writeCheckingDataset<Result>(
  datasets: DatasetRepository,
  scope: OpenDatasetInput,
  write: () => Promise<Result>,
  refused: (result: Result) => boolean,
  attempts = 2,
): Promise<Result> {
  ensureDatasetScope(scope);
  let result = await write();
  for (let attempt = 1; attempt < attempts && refused(result); attempt += 1) {
    await checkedDataset(datasets, scope);
    result = await write();
  }
  if (refused(result)) await checkedDataset(datasets, scope);
  return result;
}
