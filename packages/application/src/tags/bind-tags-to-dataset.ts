import type { Clock, IdGenerator, TagRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { bindingDatasetNotFound, bindingTagIds, ensureBindingTarget } from "./knowledge-tag-rules.js";

export interface BindTagsToDatasetInput {
  workspaceId: string;
  tagIds: readonly string[];
  targetId: string;
}

/**
 * Create Tag Binding: binds the workspace's knowledge tags among `tagIds` to the dataset. Other ids
 * are ignored; pairs already bound stay as they are. No `enable_api` check, as in the reference.
 * One write that checks the dataset as it binds (on PostgreSQL one round trip).
 */
export class BindTagsToDataset {
  constructor(
    private readonly tags: TagRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: BindTagsToDatasetInput): Promise<void> {
    ensureInput(input);
    const tagIds = bindingTagIds(input.tagIds);
    ensureBindingTarget(input.workspaceId, input.targetId);
    const bound = await this.tags.bindToDataset({
      workspaceId: input.workspaceId,
      datasetId: input.targetId,
      tags: [...new Set(tagIds)].map((tagId) => ({ tagId, bindingId: this.ids.next() })),
      createdAt: this.clock.nowSeconds(),
    });
    if (!bound) throw bindingDatasetNotFound();
  }
}
