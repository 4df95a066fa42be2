import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { appOf, requireAppKey } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { sendJson } from "../http/send-json.js";
import { presentWebAppSettings } from "../presenters/web-app-settings-presenter.js";
import { GET_WEB_APP_SETTINGS } from "../tokens.js";

/** Get App WebApp Settings: `GET /site`. */
export function registerSiteRoutes(router: Router, container: DependencyContainer): void {
  const getSettings = container.resolve(GET_WEB_APP_SETTINGS);
  router
    .route("/site")
    .get(requireAppKey(container), async (_req, res) => {
      sendJson(res, presentWebAppSettings(await getSettings.execute(appOf(res))));
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
