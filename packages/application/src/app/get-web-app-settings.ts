import { type App, ForbiddenError, type Site, siteIconUrl } from "@service-api/domain";
import type { AppRepository } from "@service-api/ports";
import { ensureGrantedApp } from "../access/granted-app.js";

export interface WebAppSettings extends Omit<Site, "appId"> {
  iconUrl: string | null;
}

const NO_SITE =
  "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.";

/** Get App WebApp Settings: the app's site, for any app mode. */
export class GetWebAppSettings {
  /** `filesBaseUrl`: the public base under which image icons are served. */
  constructor(
    private readonly apps: AppRepository,
    private readonly filesBaseUrl: string,
  ) {}

  async execute(app: App): Promise<WebAppSettings> {
    const site = await this.apps.findSite(ensureGrantedApp(app).id);
    if (!site) throw new ForbiddenError(NO_SITE);
    const { appId, ...settings } = site;
    return { ...settings, iconUrl: siteIconUrl(site, this.filesBaseUrl) };
  }
}
