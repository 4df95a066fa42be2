import { type CountedTag, isPossibleId } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { ensureTagName, tagNameTaken, tagNotFound } from "./knowledge-tag-rules.js";

export interface RenameKnowledgeTagInput {
  workspaceId: string;
  tagId: string;
  name: string;
}

/** Update Knowledge Tag: renames a knowledge tag of the workspace; its own name is no clash. */
export class RenameKnowledgeTag {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: RenameKnowledgeTagInput): Promise<CountedTag> {
    ensureInput(input);
    ensureTagName(input.name);
    if (!isPossibleId(input.workspaceId) || !isPossibleId(input.tagId)) throw tagNotFound();
    const renamed = await this.tags.rename(input.workspaceId, "knowledge", input.tagId, input.name);
    if (renamed === "not_found") throw tagNotFound();
    if (renamed === "name_taken") throw tagNameTaken();
    return renamed;
  }
}
