import {
  DATASET_NOT_FOUND,
  DatasetNameDuplicateError,
  type DatasetPermission,
  ensureDatasetText,
  ensureRetrievalWithoutModel,
  ensureTechniqueWithoutModel,
  type IndexingTechnique,
  InvalidParamError,
  NotFoundError,
  type RetrievalModel,
} from "@service-api/domain";
import type { Clock, DatasetRepository, WorkspaceRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import type { DatasetView } from "./dataset-view.js";
import { checkedDataset } from "./open-dataset.js";

export interface UpdateDatasetInput {
  workspaceId: string;
  datasetId: string;
  name?: string;
  description?: string;
  /** Null is refused: a technique once set is never unset. */
  indexingTechnique?: IndexingTechnique | null;
  permission?: DatasetPermission;
  retrievalModel?: RetrievalModel;
}

export const TECHNIQUE_CANNOT_BE_UNSET = "indexing_technique: cannot be unset.";

/**
 * Update Dataset: the settings given change, the rest stay; `updated_by` (the workspace's owner)
 * and `updated_at` with them. After the dataset checks (404, 403), with the create's refusals; a
 * name another dataset of the workspace holds is 409, settled by the store's unique index.
 */
export class UpdateDataset {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly workspaces: Pick<WorkspaceRepository, "findOwner">,
    private readonly clock: Clock,
  ) {}

  async execute(input: UpdateDatasetInput): Promise<DatasetView> {
    ensureInput(input);
    await checkedDataset(this.datasets, input);
    ensureDatasetText(input.name, input.description);
    if (input.indexingTechnique === null)
      throw new InvalidParamError("indexing_technique", TECHNIQUE_CANNOT_BE_UNSET);
    ensureTechniqueWithoutModel(input.indexingTechnique);
    if (input.retrievalModel) ensureRetrievalWithoutModel(input.retrievalModel);
    const owner = await this.workspaces.findOwner(input.workspaceId);
    const updated = await this.datasets.update(input.workspaceId, input.datasetId, {
      name: input.name,
      description: input.description,
      indexingTechnique: input.indexingTechnique,
      permission: input.permission,
      retrievalModel: input.retrievalModel,
      updatedBy: owner?.id ?? null,
      updatedAt: this.clock.nowSeconds(),
    });
    if (updated === "name_taken") throw new DatasetNameDuplicateError();
    // Deleted in between: "Dataset not found.", as the dataset checks would answer now.
    const view =
      updated === "not_found"
        ? undefined
        : await this.datasets.findOverview(input.workspaceId, input.datasetId);
    if (!view) throw new NotFoundError(DATASET_NOT_FOUND);
    return view;
  }
}
