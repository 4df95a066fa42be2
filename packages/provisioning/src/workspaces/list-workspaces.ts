import type { Workspace } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";

export interface WorkspaceSummary {
  workspace: Workspace;
  /** How many datasets it holds (not those deleted). */
  datasets: number;
  apps: number;
}

/** Every workspace, by name then id, with how many datasets and apps it holds. */
export class ListWorkspaces {
  constructor(private readonly repositories: Pick<Repositories, "workspaces" | "datasets" | "apps">) {}

  async execute(): Promise<WorkspaceSummary[]> {
    const { workspaces, datasets, apps } = this.repositories;
    const summaries: WorkspaceSummary[] = [];
    for (const workspace of await workspaces.list()) {
      // A page of one counts them in one statement, without reading every dataset.
      const { total } = await datasets.listPage(workspace.id, {}, 0, 1);
      const held = await apps.listInWorkspace(workspace.id);
      summaries.push({ workspace, datasets: total, apps: held.length });
    }
    return summaries;
  }
}
