import { GetAppInfo, GetAppMeta, GetWebAppSettings } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { appOperations } from "./operations.js";

export interface AppUseCases {
  getWebAppSettings: GetWebAppSettings;
  getAppInfo: GetAppInfo;
  getAppMeta: GetAppMeta;
}

/** The app an app key reaches: its web app settings, info and meta. */
export const appFamily = defineFamily({
  name: "app",
  token: Symbol("AppUseCases") as InjectionToken<AppUseCases>,
  useCases: ({ repositories: { apps, tags, workspaces }, config }) => ({
    getWebAppSettings: new GetWebAppSettings(apps, config.filesUrl),
    getAppInfo: new GetAppInfo(tags, workspaces),
    getAppMeta: new GetAppMeta(),
  }),
  operations: appOperations,
});
