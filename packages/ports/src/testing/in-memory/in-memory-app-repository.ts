import type { App, Site } from "@service-api/domain";
import type { AppRepository } from "../../app-repository.js";
import { AccessRevision } from "./access-revision.js";
import { byName, type Snapshotting } from "./snapshotting.js";

export class InMemoryAppRepository implements AppRepository, Snapshotting {
  #apps = new Map<string, App>();
  #sites = new Map<string, Site>();

  constructor(private readonly access = new AccessRevision()) {}

  snapshot(): unknown {
    return structuredClone([this.#apps, this.#sites]);
  }

  restore(snapshot: unknown): void {
    [this.#apps, this.#sites] = snapshot as [Map<string, App>, Map<string, Site>];
  }

  async listInWorkspace(workspaceId: string): Promise<App[]> {
    return structuredClone(
      [...this.#apps.values()].filter((app) => app.workspaceId === workspaceId).sort(byName),
    );
  }

  async save(app: App): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#apps.get(app.id);
    if (stored && stored.workspaceId !== app.workspaceId) return "owned_elsewhere";
    this.#apps.set(app.id, structuredClone(app));
    this.access.bump();
    return undefined;
  }

  async findById(id: string): Promise<App | undefined> {
    return structuredClone(this.#apps.get(id));
  }

  async saveSite(site: Site): Promise<void> {
    this.#sites.set(site.appId, structuredClone(site));
  }

  async findSite(appId: string): Promise<Site | undefined> {
    return structuredClone(this.#sites.get(appId));
  }
}
