import type { DisplayStatus } from "./display-status.js";
import type { Document } from "./document.js";
import { InvalidActionError, InvalidParamError } from "./errors.js";
import { shownInMessage } from "./text.js";

export const DOCUMENT_STATUS_ACTIONS = ["enable", "disable", "archive", "un_archive"] as const;
export type DocumentStatusAction = (typeof DOCUMENT_STATUS_ACTIONS)[number];

/** The action named in the path, exactly (case-sensitive), or `invalid_action`. */
export function parseDocumentStatusAction(action: unknown): DocumentStatusAction {
  if ((DOCUMENT_STATUS_ACTIONS as readonly unknown[]).includes(action)) return action as DocumentStatusAction;
  throw new InvalidActionError(
    `Invalid action: ${shownInMessage(action)}. Must be one of ['enable', 'disable', 'archive', 'un_archive']`,
  );
}

/** Only a document whose indexing has completed may be disabled. */
export function ensureStatusActionAllowed(document: Document, action: DocumentStatusAction): void {
  if (action === "disable" && document.indexingStatus !== "completed")
    throw new InvalidActionError(`Document: ${document.name} is not completed.`);
}

/** What a status action sets on each document it changes. */
export type DocumentStatusPatch = Partial<
  Pick<
    Document,
    "enabled" | "disabledAt" | "disabledBy" | "archived" | "archivedAt" | "archivedBy" | "updatedAt"
  >
>;

/** The fields `action` by `actor` at `now` (Unix seconds) sets on a document it changes. */
export function statusPatch(
  action: DocumentStatusAction,
  actor: string | null,
  now: number,
): DocumentStatusPatch {
  switch (action) {
    case "enable":
      return { enabled: true, disabledAt: null, disabledBy: null, updatedAt: now };
    case "disable":
      return { enabled: false, disabledAt: now, disabledBy: actor, updatedAt: now };
    case "archive":
      return { archived: true, archivedAt: now, archivedBy: actor, updatedAt: now };
    default:
      return { archived: false, archivedAt: null, archivedBy: null, updatedAt: now };
  }
}

/** Whether `action` changes the document: false when it is already in the action's state. */
export function statusActionChanges(document: Document, action: DocumentStatusAction): boolean {
  switch (action) {
    case "enable":
      return !document.enabled;
    case "disable":
      return document.enabled;
    case "archive":
      return !document.archived;
    default:
      return document.archived;
  }
}

/**
 * The document after `action` by `actor` at `now` (Unix seconds), or undefined when it is already in
 * the action's state (then nothing changes, `updatedAt` included).
 */
export function applyStatusAction(
  document: Document,
  action: DocumentStatusAction,
  actor: string | null,
  now: number,
): Document | undefined {
  return statusActionChanges(document, action)
    ? { ...document, ...statusPatch(action, actor, now) }
    : undefined;
}

export const DISPLAY_STATUSES = [
  "queuing",
  "indexing",
  "paused",
  "error",
  "available",
  "disabled",
  "archived",
] as const satisfies readonly DisplayStatus[];

/**
 * A `status` filter of the document list: any case, `active` and `enabled` meaning `available`;
 * undefined when absent; anything else is refused.
 */
export function parseDisplayStatusFilter(value: unknown): DisplayStatus | undefined {
  if (value === undefined) return undefined;
  const status = typeof value === "string" ? value.toLowerCase() : undefined;
  if (status === "active" || status === "enabled") return "available";
  if ((DISPLAY_STATUSES as readonly unknown[]).includes(status)) return status as DisplayStatus;
  throw new InvalidParamError("status", `status: must be one of ${DISPLAY_STATUSES.join(", ")}.`);
}
