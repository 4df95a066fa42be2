import type { App } from "@service-api/domain";
import type { TagRepository, WorkspaceRepository } from "@service-api/ports";
import { ensureGrantedApp } from "../access/granted-app.js";

export interface AppInfo {
  name: string;
  description: string;
  /** Names of the app tags bound to the app, by name then id. */
  tags: string[];
  mode: App["mode"];
  /** The creator member's name; "" without one. */
  authorName: string;
}

/** Get App Info: the app's name, description, tags, mode and author, for any mode. */
export class GetAppInfo {
  constructor(
    private readonly tags: TagRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async execute(granted: App): Promise<AppInfo> {
    const app = ensureGrantedApp(granted);
    const [bound, author] = await Promise.all([
      this.tags.boundTags([app.id]),
      app.createdBy ? this.workspaces.findMember(app.workspaceId, app.createdBy) : undefined,
    ]);
    return {
      name: app.name,
      description: app.description,
      tags: (bound.get(app.id) ?? []).filter((tag) => tag.type === "app").map((tag) => tag.name),
      mode: app.mode,
      authorName: author?.name ?? "",
    };
  }
}

/** Get App Meta: the icons of the app's tools; we store no agent tools, so none. */
export class GetAppMeta {
  async execute(app: App): Promise<{ toolIcons: Record<string, never> }> {
    ensureGrantedApp(app);
    return { toolIcons: {} };
  }
}
