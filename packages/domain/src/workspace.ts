export type WorkspaceStatus = "normal" | "archived";

/** A tenant. Datasets, tags, apps and dataset keys belong to exactly one workspace. */
export interface Workspace {
  id: string;
  name: string;
  status: WorkspaceStatus;
}

/** A person of the workspace: creators of documents and uploaders of files. */
export interface Member {
  id: string;
  workspaceId: string;
  name: string;
}
