import { ForbiddenError } from "./errors.js";
import { isPossibleId } from "./ids.js";
import type { Workspace } from "./workspace.js";

/** App modes, with the interface's kind names. */
export const APP_MODES = {
  "advanced-chat": "Chatflow",
  workflow: "Workflow",
  agent: "Agent",
  chat: "Chatbot",
  "agent-chat": "Legacy Agent",
  completion: "Text Generator",
} as const;
export type AppMode = keyof typeof APP_MODES;

export interface App {
  id: string;
  workspaceId: string;
  name: string;
  mode: AppMode;
  enableApi: boolean;
  status: "normal" | "archived";
  description: string;
  /** The member who created it; null when unknown. */
  createdBy: string | null;
}

/**
 * Whether `value` can be an app an operation acts for: what the operations read of one (its id,
 * workspace, creator and mode) is there, and its ids can name records. The rest is shown as it is.
 */
export function isApp(value: unknown): value is App {
  if (typeof value !== "object" || value === null) return false;
  const { id, workspaceId, createdBy, mode } = value as Record<keyof App, unknown>;
  return (
    isPossibleId(id) &&
    isPossibleId(workspaceId) &&
    (createdBy === null || isPossibleId(createdBy)) &&
    typeof mode === "string" &&
    Object.hasOwn(APP_MODES, mode)
  );
}

/** Web app settings of an app; at most one per app. */
export interface Site {
  appId: string;
  title: string;
  chatColorTheme: string;
  chatColorThemeInverted: boolean;
  iconType: "emoji" | "image";
  icon: string;
  iconBackground: string;
  description: string;
  copyright: string;
  privacyPolicy: string;
  inputPlaceholder: string | null;
  customDisclaimer: string;
  defaultLanguage: string;
  showWorkflowSteps: boolean;
  useIconAsAnswerIcon: boolean;
}

/** Why an app does not serve its API, in Dify's words (`validate_app_token`), in its order. */
export const APP_OUT_OF_SERVICE = {
  gone: "The app no longer exists.",
  abnormal: "The app's status is abnormal.",
  apiDisabled: "The app's API service has been disabled.",
  workspaceArchived: "The workspace's status is archived.",
} as const;

/** An app serves its API only while it, and its workspace, are in service. */
export function ensureAppServesApi(app: App | undefined, workspace: Workspace | undefined): App {
  if (!app) throw new ForbiddenError(APP_OUT_OF_SERVICE.gone);
  if (app.status !== "normal") throw new ForbiddenError(APP_OUT_OF_SERVICE.abnormal);
  if (!app.enableApi) throw new ForbiddenError(APP_OUT_OF_SERVICE.apiDisabled);
  if (workspace?.status !== "normal") throw new ForbiddenError(APP_OUT_OF_SERVICE.workspaceArchived);
  return app;
}

/** Absolute URL of an image icon, under the public files base; null for emoji icons. */
export function siteIconUrl(site: Site, filesBaseUrl: string): string | null {
  if (site.iconType !== "image") return null;
  return `${filesBaseUrl.replace(/\/+$/, "")}/files/${encodeURIComponent(site.icon)}/file-preview`;
}
