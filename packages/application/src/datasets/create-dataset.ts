import {
  type Dataset,
  DatasetNameDuplicateError,
  type DatasetPermission,
  DomainError,
  ensureDatasetText,
  ensureRetrievalWithoutModel,
  ensureTechniqueWithoutModel,
  type IndexingTechnique,
  InvalidParamError,
  isPossibleId,
  NotFoundError,
  type RetrievalModel,
  WORKSPACE_NOT_FOUND,
} from "@service-api/domain";
import type { Clock, DatasetRepository, IdGenerator, WorkspaceRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import type { DatasetView } from "./dataset-view.js";

export interface CreateDatasetInput {
  workspaceId: string;
  name: string;
  description?: string;
  indexingTechnique?: IndexingTechnique | null;
  permission?: DatasetPermission;
  /** `vendor` (default); `external` is refused: no external knowledge API is reached from here. */
  provider?: "vendor" | "external";
  retrievalModel?: RetrievalModel | null;
}

export const EXTERNAL_NOT_SUPPORTED = "External knowledge bases are not supported.";

/**
 * Create Dataset: an empty knowledge base of the workspace, its API on and built-in fields off,
 * created by the workspace's owner. What needs a model (high quality, semantic search, reranking)
 * is refused before anything is written; a name the workspace holds already is 409, settled by the
 * store's unique index (of two racing creates, one is refused).
 */
export class CreateDataset {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly workspaces: Pick<WorkspaceRepository, "findById" | "findOwner">,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateDatasetInput): Promise<DatasetView> {
    ensureInput(input);
    const { workspaceId } = input;
    if (!isPossibleId(workspaceId)) throw new NotFoundError(WORKSPACE_NOT_FOUND);
    ensureDatasetText(input.name, input.description);
    if (input.provider === "external") throw new InvalidParamError("provider", EXTERNAL_NOT_SUPPORTED);
    ensureTechniqueWithoutModel(input.indexingTechnique);
    if (input.retrievalModel) ensureRetrievalWithoutModel(input.retrievalModel);
    const owner = await this.workspaces.findOwner(workspaceId);
    const now = this.clock.nowSeconds();
    const dataset: Dataset = {
      id: this.ids.next(),
      workspaceId,
      name: input.name,
      enableApi: true,
      builtInFieldEnabled: false,
      processRule: undefined,
      description: input.description ?? "",
      indexingTechnique: input.indexingTechnique ?? null,
      permission: input.permission ?? "only_me",
      retrievalModel: input.retrievalModel ?? null,
      createdBy: owner?.id ?? null,
      updatedBy: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.created(dataset))) throw new DatasetNameDuplicateError();
    const view = await this.datasets.findOverview(workspaceId, dataset.id);
    // Deleted as soon as made (another caller): it is answered as made.
    return (
      view ?? { dataset, counts: NO_COUNTS, firstDocument: undefined, authorName: null, tags: [], fields: [] }
    );
  }

  /** The store's answer; a foreign-key failure (a workspace a direct caller made up) is looked into. */
  private async created(dataset: Dataset): Promise<boolean> {
    try {
      return await this.datasets.create(dataset);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (!(await this.workspaces.findById(dataset.workspaceId)))
        throw new NotFoundError(WORKSPACE_NOT_FOUND);
      throw error;
    }
  }
}

const NO_COUNTS = { documents: 0, availableDocuments: 0, words: 0 };
