import type { Store } from "@service-api/ports";
import { tagNotFound } from "./knowledge-tag-rules.js";

export interface DeleteKnowledgeTagInput {
  workspaceId: string;
  tagId: string;
}

/** Delete Knowledge Tag: the tag and all its bindings; the datasets stay. */
export class DeleteKnowledgeTag {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute(input: DeleteKnowledgeTagInput): Promise<void> {
    await this.store.transaction(async ({ tags }) => {
      const tag = await tags.findInWorkspace(input.workspaceId, "knowledge", input.tagId);
      // A concurrent delete may have taken it since: then it is not found either.
      if (!tag || !(await tags.delete(tag.id))) throw tagNotFound();
    });
  }
}
