import {
  type CountedTag,
  DomainError,
  isPossibleId,
  NotFoundError,
  type Tag,
  WORKSPACE_NOT_FOUND,
} from "@service-api/domain";
import type { Clock, IdGenerator, TagRepository, WorkspaceRepository } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";
import { ensureTagName, tagNameTaken } from "./knowledge-tag-rules.js";

export interface CreateKnowledgeTagInput {
  workspaceId: string;
  name: string;
}

/** Create Knowledge Tag: a new knowledge tag, its name free among the workspace's knowledge tags. */
export class CreateKnowledgeTag {
  /**
   * `workspaces` tells a workspace that is not there (404) from the store's other failures; without
   * it, only ids that can name nothing answer 404, and the store refuses an unknown workspace its way.
   */
  constructor(
    private readonly tags: TagRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly workspaces?: Pick<WorkspaceRepository, "findById">,
  ) {}

  async execute(input: CreateKnowledgeTagInput): Promise<CountedTag> {
    ensureInput(input);
    const { workspaceId } = input;
    if (!isPossibleId(workspaceId)) throw new NotFoundError(WORKSPACE_NOT_FOUND);
    ensureTagName(input.name);
    const tag: Tag = {
      id: this.ids.next(),
      workspaceId,
      type: "knowledge",
      name: input.name,
      createdAt: this.clock.nowSeconds(),
    };
    // One statement: the store's unique name settles races.
    if (!(await this.created(tag))) throw tagNameTaken();
    return { ...tag, bindingCount: 0 };
  }

  /**
   * The store's answer; a failure that is no domain error (the workspace's foreign key, which only
   * a direct caller can miss: a key names an existing workspace) is looked into, not on every call.
   */
  private async created(tag: Tag): Promise<boolean> {
    try {
      return await this.tags.create(tag);
    } catch (error) {
      if (error instanceof DomainError || !this.workspaces) throw error;
      if (!(await this.workspaces.findById(tag.workspaceId))) throw new NotFoundError(WORKSPACE_NOT_FOUND);
      throw error;
    }
  }
}
