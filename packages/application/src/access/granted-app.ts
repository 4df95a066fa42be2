import { type App, InvalidParamError, isApp } from "@service-api/domain";

/**
 * The app an app operation acts for, as `AuthenticateApiKey.forApp` grants it. Anything else (none,
 * or one whose ids can name nothing) is refused before it is looked up.
 */
export function ensureGrantedApp(app: unknown): App {
  if (!isApp(app)) throw new InvalidParamError("app", "app: must be the app an app key grants.");
  return app;
}
