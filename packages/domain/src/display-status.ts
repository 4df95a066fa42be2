import type { Document } from "./document.js";

export type DisplayStatus =
  | "queuing"
  | "paused"
  | "indexing"
  | "error"
  | "archived"
  | "available"
  | "disabled";

type StatusFacts = Pick<Document, "indexingStatus" | "isPaused" | "archived" | "enabled">;

/** The UI-facing status of a document, as Dify derives it. `null` for a status it does not know. */
export function displayStatus(document: StatusFacts): DisplayStatus | null {
  const status: string = document.indexingStatus;
  if (status === "waiting") return "queuing";
  const finished = status === "completed" || status === "error";
  if ((document.isPaused || status === "paused") && !finished) return "paused";
  switch (status) {
    case "parsing":
    case "cleaning":
    case "splitting":
    case "indexing":
      return "indexing";
    case "error":
      return "error";
    case "completed":
      if (document.archived) return "archived";
      return document.enabled ? "available" : "disabled";
    default:
      return null;
  }
}
