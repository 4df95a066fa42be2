import type { Member, Workspace } from "@service-api/domain";
import type { WorkspaceRepository } from "../../workspace-repository.js";

export class InMemoryWorkspaceRepository implements WorkspaceRepository {
  readonly #workspaces = new Map<string, Workspace>();
  readonly #members = new Map<string, Member>();

  async save(workspace: Workspace): Promise<void> {
    this.#workspaces.set(workspace.id, structuredClone(workspace));
  }

  async findById(id: string): Promise<Workspace | undefined> {
    return structuredClone(this.#workspaces.get(id));
  }

  async saveMember(member: Member): Promise<void> {
    this.#members.set(member.id, structuredClone(member));
  }

  async findMember(workspaceId: string, memberId: string): Promise<Member | undefined> {
    const member = this.#members.get(memberId);
    return member?.workspaceId === workspaceId ? structuredClone(member) : undefined;
  }
}
