import type { Member, Workspace } from "@service-api/domain";

/** Workspaces (tenants) and their members. */
export interface WorkspaceRepository {
  /** Inserts or replaces the workspace with this id. */
  save(workspace: Workspace): Promise<void>;
  findById(id: string): Promise<Workspace | undefined>;
  /** Every workspace, by name (in code point order) then id. */
  list(): Promise<Workspace[]>;
  /**
   * Inserts or replaces the member with this id (imports); its workspace must exist. Answers
   * "owned_elsewhere", writing nothing, when the id is another workspace's member (a member never
   * moves); undefined when it wrote.
   */
  saveMember(member: Member): Promise<"owned_elsewhere" | undefined>;
  /** The member with this id in this workspace; a member of another workspace is absent. */
  findMember(workspaceId: string, memberId: string): Promise<Member | undefined>;
  /** The workspace's members, by name (in code point order) then id. */
  listMembers(workspaceId: string): Promise<Member[]>;
  /** The workspace's owner, the member with role `owner`; absent when it has none. */
  findOwner(workspaceId: string): Promise<Member | undefined>;
}
