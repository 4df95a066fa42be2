import { ensureDatasetServesApi, type Tag } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

export interface ListDatasetTagsInput {
  workspaceId: string;
  datasetId: string;
}

/**
 * Query Dataset Tags: the knowledge tags bound to a dataset, by name then id, read with the
 * dataset in one read. The dataset must serve the API (404, 403).
 */
export class ListDatasetTags {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: ListDatasetTagsInput): Promise<Tag[]> {
    ensureInput(input);
    const { workspaceId, datasetId } = input;
    ensureDatasetScope({ workspaceId, datasetId });
    const found = await this.tags.findBoundToDataset(workspaceId, datasetId);
    ensureDatasetServesApi(found.dataset);
    return found.tags;
  }
}
