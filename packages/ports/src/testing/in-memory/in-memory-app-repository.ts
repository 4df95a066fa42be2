import type { App, Site } from "@service-api/domain";
import type { AppRepository } from "../../app-repository.js";

export class InMemoryAppRepository implements AppRepository {
  readonly #apps = new Map<string, App>();
  readonly #sites = new Map<string, Site>();

  async save(app: App): Promise<void> {
    this.#apps.set(app.id, structuredClone(app));
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
