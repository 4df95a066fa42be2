export type ApiKeyKind = "app" | "dataset";

/** Keys as Dify formats them: `app-…` for an app, `ds-…` for a workspace's knowledge bases. */
export const API_KEY_PREFIXES: Record<ApiKeyKind, string> = { app: "app-", dataset: "ds-" };

/** A stored API key. Only its hash is kept, with a short prefix to recognise it by. */
export type ApiKey = {
  id: string;
  workspaceId: string;
  tokenHash: string;
  /** The first characters of the key, for listings. Never enough to use it. */
  displayPrefix: string;
  createdAt: number;
  lastUsedAt: number | null;
} & ({ kind: "app"; appId: string } | { kind: "dataset"; appId: null });

/** How long a key's `lastUsedAt` may lag: uses within this window are not written again. */
export const KEY_USE_RECORD_INTERVAL_SECONDS = 60;

export function shouldRecordKeyUse(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || now - lastUsedAt >= KEY_USE_RECORD_INTERVAL_SECONDS;
}

/** The kind a token claims by its prefix, if any. */
export function apiKeyKindOf(token: string): ApiKeyKind | undefined {
  if (token.startsWith(API_KEY_PREFIXES.app)) return "app";
  if (token.startsWith(API_KEY_PREFIXES.dataset)) return "dataset";
  return undefined;
}

/** The part of a token shown in listings: its kind prefix and four characters, never enough to use it. */
export function displayPrefixOf(token: string): string {
  const kind = apiKeyKindOf(token);
  return kind ? token.slice(0, API_KEY_PREFIXES[kind].length + 4) : `${token.slice(0, 4)}…`;
}
