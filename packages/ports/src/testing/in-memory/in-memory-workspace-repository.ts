import type { Member, Workspace } from "@service-api/domain";
import type { WorkspaceRepository } from "../../workspace-repository.js";
import { AccessRevision } from "./access-revision.js";
import { byName, type Snapshotting } from "./snapshotting.js";

export class InMemoryWorkspaceRepository implements WorkspaceRepository, Snapshotting {
  #workspaces = new Map<string, Workspace>();
  #members = new Map<string, Member>();

  constructor(private readonly access = new AccessRevision()) {}

  snapshot(): unknown {
    return structuredClone([this.#workspaces, this.#members]);
  }

  restore(snapshot: unknown): void {
    [this.#workspaces, this.#members] = snapshot as [Map<string, Workspace>, Map<string, Member>];
  }

  async list(): Promise<Workspace[]> {
    return structuredClone([...this.#workspaces.values()].sort(byName));
  }

  async listMembers(workspaceId: string): Promise<Member[]> {
    return structuredClone(
      [...this.#members.values()].filter((member) => member.workspaceId === workspaceId).sort(byName),
    );
  }

  async save(workspace: Workspace): Promise<void> {
    this.#workspaces.set(workspace.id, structuredClone(workspace));
    this.access.bump();
  }

  async findById(id: string): Promise<Workspace | undefined> {
    return structuredClone(this.#workspaces.get(id));
  }

  async saveMember(member: Member): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#members.get(member.id);
    if (stored && stored.workspaceId !== member.workspaceId) return "owned_elsewhere";
    const owner = member.role === "owner" && (await this.findOwner(member.workspaceId));
    if (owner && owner.id !== member.id) throw new Error(`The workspace already has an owner: ${owner.id}`);
    this.#members.set(member.id, structuredClone(member));
    return undefined;
  }

  async findOwner(workspaceId: string): Promise<Member | undefined> {
    const owner = [...this.#members.values()].find(
      (member) => member.workspaceId === workspaceId && member.role === "owner",
    );
    return structuredClone(owner);
  }

  /** A member's name by id alone, for the other in-memory repositories' joins. */
  memberName(memberId: string | null): string | null {
    return (memberId !== null && this.#members.get(memberId)?.name) || null;
  }

  async findMember(workspaceId: string, memberId: string): Promise<Member | undefined> {
    const member = this.#members.get(memberId);
    return member?.workspaceId === workspaceId ? structuredClone(member) : undefined;
  }
}
