import { eligibleTagIds, NotFoundError } from "@service-api/domain";
import type { DatasetRepository, TagRepository } from "@service-api/ports";

export interface UnbindTagsFromDatasetInput {
  workspaceId: string;
  tagIds: readonly string[];
  targetId: string;
}

/**
 * Remove Tag Binding: unbinds the workspace's knowledge tags among `tagIds` from the dataset. Other
 * ids and pairs not bound are ignored, so it can be repeated. No `enable_api` check, as binding.
 */
export class UnbindTagsFromDataset {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly tags: TagRepository,
  ) {}

  async execute(input: UnbindTagsFromDatasetInput): Promise<void> {
    const dataset = await this.datasets.findInWorkspace(input.workspaceId, input.targetId);
    if (!dataset) throw new NotFoundError("Dataset not found");
    const found = await this.tags.findByIds(input.tagIds);
    await this.tags.unbind(dataset.id, eligibleTagIds(input.tagIds, found, dataset.workspaceId));
  }
}
