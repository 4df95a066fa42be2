import type { App, Site } from "@service-api/domain";

/** Apps and their web app settings (sites). */
export interface AppRepository {
  /**
   * Inserts or replaces the app with this id (imports); its workspace must exist. Answers
   * "owned_elsewhere", writing nothing, when the id is another workspace's app (an app never
   * moves); undefined when it wrote.
   */
  save(app: App): Promise<"owned_elsewhere" | undefined>;
  findById(id: string): Promise<App | undefined>;
  /** The workspace's apps, by name (in code point order) then id. */
  listInWorkspace(workspaceId: string): Promise<App[]>;
  /** Inserts or replaces the app's site: at most one per app. */
  saveSite(site: Site): Promise<void>;
  findSite(appId: string): Promise<Site | undefined>;
}
