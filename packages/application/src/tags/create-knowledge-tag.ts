import type { CountedTag, Tag } from "@service-api/domain";
import type { Clock, IdGenerator, TagRepository } from "@service-api/ports";
import { ensureTagName, tagNameTaken } from "./knowledge-tag-rules.js";

export interface CreateKnowledgeTagInput {
  workspaceId: string;
  name: string;
}

/** Create Knowledge Tag: a new knowledge tag, its name free among the workspace's knowledge tags. */
export class CreateKnowledgeTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateKnowledgeTagInput): Promise<CountedTag> {
    ensureTagName(input.name);
    const tag: Tag = {
      id: this.ids.next(),
      workspaceId: input.workspaceId,
      type: "knowledge",
      name: input.name,
      createdAt: this.clock.nowSeconds(),
    };
    // One statement: the store's unique name settles races.
    if (!(await this.tags.create(tag))) throw tagNameTaken();
    return { ...tag, bindingCount: 0 };
  }
}
