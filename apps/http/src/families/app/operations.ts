import { ALWAYS, APP } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { WEB_APP_SETTINGS_EXAMPLE } from "./examples.js";
import type { AppUseCases } from "./index.js";
import { presentWebAppSettings } from "./presenters.js";
import { appInfo, appMeta, webAppSettings } from "./schemas.js";

const TAG = "Applications";

export const appOperations = (useCases: AppUseCases) => [
  defineOperation({
    operationId: "getChatWebAppSettings",
    method: "get",
    path: "/site",
    tag: TAG,
    summary: "Get the web app settings",
    description: "Any app mode.",
    key: "app",
    success: {
      status: 200,
      description: "The app's web app settings.",
      schema: webAppSettings,
      example: WEB_APP_SETTINGS_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...APP,
      {
        status: 403,
        code: "forbidden",
        message:
          "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
      },
    ],
    async handle({ app }) {
      return presentWebAppSettings(await useCases.getWebAppSettings.execute(app));
    },
  }),
  defineOperation({
    operationId: "getChatAppInfo",
    method: "get",
    path: "/info",
    tag: TAG,
    summary: "Get the app's basic information",
    description: "Any app mode.",
    key: "app",
    success: {
      status: 200,
      description: "The app's name, description, tags, mode and author.",
      schema: appInfo,
      example: {
        name: "Support assistant",
        description: "",
        tags: ["assistants"],
        mode: "chat",
        author_name: "Ada Lovelace",
      },
    },
    errors: [...ALWAYS, ...APP],
    async handle({ app }) {
      const info = await useCases.getAppInfo.execute(app);
      return {
        name: info.name,
        description: info.description,
        tags: info.tags,
        mode: info.mode,
        author_name: info.authorName,
      };
    },
  }),
  defineOperation({
    operationId: "getChatAppMeta",
    method: "get",
    path: "/meta",
    tag: TAG,
    summary: "Get the app's meta information",
    description: "The icons of the app's tools; none are held, so `{}`.",
    key: "app",
    success: {
      status: 200,
      description: "The app's tool icons.",
      schema: appMeta,
      example: { tool_icons: {} },
    },
    errors: [...ALWAYS, ...APP],
    async handle({ app }) {
      return { tool_icons: (await useCases.getAppMeta.execute(app)).toolIcons };
    },
  }),
];
