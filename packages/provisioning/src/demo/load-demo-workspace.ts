import type { ApiKeyRepository } from "@service-api/ports";
import type { ImportData } from "../import/import-data.js";
import type { IssueApiKey } from "../keys/issue-api-key.js";
import { DEMO, demoWorkspaceFile } from "./demo-workspace.js";

export interface DemoKeys {
  /** Reaches the demo knowledge base (`ds-…`). */
  knowledgeKey: string;
  /** Reaches the demo chat app (`app-…`). */
  appKey: string;
}

/**
 * Loads (or refreshes) the demo workspace and issues fresh demo keys, revoking the previous ones:
 * a key is shown once, so each load shows new ones and no old one stays valid.
 */
export class LoadDemoWorkspace {
  constructor(
    private readonly importData: ImportData,
    private readonly issueKey: IssueApiKey,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  async execute(): Promise<DemoKeys> {
    await this.importData.execute(demoWorkspaceFile());
    for (const key of await this.apiKeys.list({ workspaceId: DEMO.workspaceId }))
      await this.apiKeys.delete(key.id);
    const knowledge = await this.issueKey.execute({ workspaceId: DEMO.workspaceId });
    const app = await this.issueKey.execute({ appId: DEMO.chatAppId });
    return { knowledgeKey: knowledge.token, appKey: app.token };
  }
}
