/** Where the server and the CLI keep their data unless `DATABASE_URL` says otherwise. */
export const DEFAULT_DATABASE_URL = "file:./data/service-api.sqlite";

import { fileURLToPath } from "node:url";

/**
 * The file path a `DATABASE_URL` names: a plain path (relative to the working directory), a
 * `file:` URL (`file:/srv/kb.sqlite`, `file:///srv/kb.sqlite`, `file:./data/kb.sqlite`), or `:memory:`.
 */
export function sqlitePathOf(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) return databaseUrl;
  if (databaseUrl.startsWith("file://")) return fileURLToPath(databaseUrl.split("?")[0]!);
  const path = decodeURIComponent(databaseUrl.slice("file:".length).split("?")[0]!);
  if (path === "") throw new Error(`DATABASE_URL names no file: ${databaseUrl}`);
  return path;
}
