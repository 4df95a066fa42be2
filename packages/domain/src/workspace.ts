export type WorkspaceStatus = "normal" | "archived";

/** A tenant. Datasets, tags, apps and dataset keys belong to exactly one workspace. */
export interface Workspace {
  id: string;
  name: string;
  status: WorkspaceStatus;
}

export const WORKSPACE_NOT_FOUND = "Workspace not found.";

export type MemberRole = "owner" | "normal";

/**
 * A person of the workspace: creators of documents and uploaders of files. At most one is the
 * owner, as whom the API acts where Dify records an actor (`disabled_by`, `archived_by`).
 */
export interface Member {
  id: string;
  workspaceId: string;
  name: string;
  role: MemberRole;
}
