import type { Repositories } from "@service-api/ports";
import type { ImportData } from "../import/import-data.js";
import type { IssueApiKey } from "../keys/issue-api-key.js";
import { DEMO, demoWorkspaceFile } from "./demo-workspace.js";

export interface DemoKeys {
  /** Reaches the demo knowledge base (`ds-…`). */
  knowledgeKey: string;
  /** Reaches the demo chat app (`app-…`). */
  appKey: string;
  /** Whether the demo workspace was loaded now; false when it was stored already, and kept. */
  loaded: boolean;
}

/**
 * Loads the demo workspace unless it is stored already, and issues fresh demo keys, revoking the
 * previous ones: a key is shown once, so each load shows new ones and no old one stays valid. A
 * stored demo is kept as it is: what was done to it through the API stays done.
 */
export class LoadDemoWorkspace {
  constructor(
    private readonly importData: ImportData,
    private readonly issueKey: IssueApiKey,
    private readonly repositories: Pick<Repositories, "apiKeys" | "workspaces">,
  ) {}

  async execute(): Promise<DemoKeys> {
    const { workspaces } = this.repositories;
    const loaded = (await workspaces.findById(DEMO.workspaceId)) === undefined;
    if (loaded) await this.importData.execute(demoWorkspaceFile());
    await this.revokeKeys();
    const knowledge = await this.issueKey.execute({ workspaceId: DEMO.workspaceId });
    const app = await this.issueKey.execute({ appId: DEMO.chatAppId });
    return { knowledgeKey: knowledge.token, appKey: app.token, loaded };
  }

  /**
   * Revokes every key of the demo workspace (its apps' too), as a start in demo mode that does not
   * load it must: the keys printed before say they stop working at the next start. A key issued for
   * the demo workspace otherwise (`service-api keys create`) goes with them, as at every load.
   */
  async revokeKeys(): Promise<void> {
    const { apiKeys } = this.repositories;
    for (const key of await apiKeys.list({ workspaceId: DEMO.workspaceId })) await apiKeys.delete(key.id);
  }
}
