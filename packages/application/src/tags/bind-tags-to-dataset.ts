import { eligibleTagIds, NotFoundError } from "@service-api/domain";
import type { Clock, IdGenerator, TagRepository } from "@service-api/ports";

export interface BindTagsToDatasetInput {
  workspaceId: string;
  tagIds: readonly string[];
  targetId: string;
}

/**
 * Create Tag Binding: binds the workspace's knowledge tags among `tagIds` to the dataset. Other ids
 * are ignored; pairs already bound stay as they are. No `enable_api` check, as in the reference.
 */
export class BindTagsToDataset {
  constructor(
    private readonly tags: TagRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: BindTagsToDatasetInput): Promise<void> {
    const { dataset, tags: found } = await this.tags.findForBinding(
      input.workspaceId,
      input.targetId,
      input.tagIds,
    );
    if (!dataset) throw new NotFoundError("Dataset not found");
    const createdAt = this.clock.nowSeconds();
    const bindings = eligibleTagIds(input.tagIds, found, dataset.workspaceId).map((tagId) => ({
      id: this.ids.next(),
      workspaceId: dataset.workspaceId,
      tagId,
      targetId: dataset.id,
      createdAt,
    }));
    await this.tags.bind(bindings);
  }
}
