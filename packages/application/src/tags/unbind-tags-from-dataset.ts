import type { TagRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { bindingDatasetNotFound, bindingTagIds, ensureBindingTarget } from "./knowledge-tag-rules.js";

export interface UnbindTagsFromDatasetInput {
  workspaceId: string;
  tagIds: readonly string[];
  targetId: string;
}

/**
 * Remove Tag Binding: unbinds the workspace's knowledge tags among `tagIds` from the dataset. Other
 * ids and pairs not bound are ignored, so it can be repeated. No `enable_api` check, as binding.
 * One write that checks the dataset as it unbinds.
 */
export class UnbindTagsFromDataset {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: UnbindTagsFromDatasetInput): Promise<void> {
    ensureInput(input);
    const tagIds = bindingTagIds(input.tagIds);
    ensureBindingTarget(input.workspaceId, input.targetId);
    const unbound = await this.tags.unbindFromDataset(input.workspaceId, input.targetId, tagIds);
    if (!unbound) throw bindingDatasetNotFound();
  }
}
