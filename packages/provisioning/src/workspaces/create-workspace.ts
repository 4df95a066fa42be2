import { ensureName, InvalidParamError, type Member, type Workspace } from "@service-api/domain";
import type { IdGenerator, Store } from "@service-api/ports";

export interface CreateWorkspaceInput {
  name: string;
  /** The owner member's name; default "Owner". */
  ownerName?: string;
}

export interface CreatedWorkspace {
  workspace: Workspace;
  owner: Member;
}

/**
 * Creates an empty workspace and its owner, in one transaction: what the API creates (datasets,
 * documents) is created by the workspace's owner, so a workspace without one could not be used.
 * Names need not be unique, as in Dify: the id tells workspaces apart.
 */
export class CreateWorkspace {
  constructor(
    private readonly store: Pick<Store, "transaction">,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
    if (typeof input !== "object" || input === null)
      throw new InvalidParamError("input", "input: must be an object.");
    const { name, ownerName = "Owner" } = input;
    ensureName(name);
    ensureName(ownerName, "owner");
    const workspace: Workspace = { id: this.ids.next(), name, status: "normal" };
    const owner: Member = { id: this.ids.next(), workspaceId: workspace.id, name: ownerName, role: "owner" };
    await this.store.transaction(async ({ workspaces }) => {
      await workspaces.save(workspace);
      await workspaces.saveMember(owner);
    });
    return { workspace, owner };
  }
}
