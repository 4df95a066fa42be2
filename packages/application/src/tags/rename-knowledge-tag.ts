import type { CountedTag } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { ensureTagName, tagNameTaken, tagNotFound } from "./knowledge-tag-rules.js";

export interface RenameKnowledgeTagInput {
  workspaceId: string;
  tagId: string;
  name: string;
}

/** Update Knowledge Tag: renames a knowledge tag of the workspace; its own name is no clash. */
export class RenameKnowledgeTag {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute(input: RenameKnowledgeTagInput): Promise<CountedTag> {
    ensureTagName(input.name);
    return this.store.transaction(async ({ tags }) => {
      const tag = await tags.findInWorkspace(input.workspaceId, "knowledge", input.tagId);
      if (!tag) throw tagNotFound();
      if (tag.name === input.name) return tag;
      if (!(await tags.rename(tag.id, input.name))) throw tagNameTaken();
      return { ...tag, name: input.name };
    });
  }
}
