import { isPossibleId } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { tagNotFound } from "./knowledge-tag-rules.js";

export interface DeleteKnowledgeTagInput {
  workspaceId: string;
  tagId: string;
}

/** Delete Knowledge Tag: the tag and all its bindings, in one write; the datasets stay. */
export class DeleteKnowledgeTag {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: DeleteKnowledgeTagInput): Promise<void> {
    ensureInput(input);
    if (!isPossibleId(input.workspaceId) || !isPossibleId(input.tagId)) throw tagNotFound();
    if (!(await this.tags.delete(input.workspaceId, "knowledge", input.tagId))) throw tagNotFound();
  }
}
