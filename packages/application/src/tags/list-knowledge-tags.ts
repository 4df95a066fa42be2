import { type CountedTag, isPossibleId } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";

/** List Knowledge Tags: the workspace's knowledge tags, newest first, with their binding counts. */
export class ListKnowledgeTags {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: { workspaceId: string }): Promise<CountedTag[]> {
    ensureInput(input);
    // An id that can name nothing is no workspace's: it has no tags.
    if (!isPossibleId(input.workspaceId)) return [];
    return this.tags.listCounted(input.workspaceId, "knowledge");
  }
}
