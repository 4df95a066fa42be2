import { type ApiKeyKind, displayPrefixOf } from "@service-api/domain";
import type { WriteContext } from "./write-context.js";

/** Stores a key given in plaintext (hashed here) or as `sha256:<hex>`; a key never moves to another owner. */
export async function writeKey(
  key: string,
  kind: ApiKeyKind,
  workspaceId: string,
  appId: string | null,
  at: string,
  { repositories, hasher, ids, clock, summary, refuse }: WriteContext,
): Promise<void> {
  const tokenHash = key.startsWith("sha256:") ? key.slice("sha256:".length) : hasher.hash(key);
  const existing = await repositories.apiKeys.findByTokenHash(tokenHash);
  if (existing && (existing.workspaceId !== workspaceId || existing.appId !== appId)) {
    refuse(at, "this key is already issued for another workspace or app");
    return;
  }
  // A hashed key shows its kind only: listings add the ellipsis.
  const displayPrefix = key.startsWith("sha256:") ? (kind === "app" ? "app-" : "ds-") : displayPrefixOf(key);
  const common = {
    id: existing?.id ?? ids.derive("api-key", tokenHash),
    workspaceId,
    tokenHash,
    displayPrefix: existing?.displayPrefix ?? displayPrefix,
    createdAt: existing?.createdAt ?? clock.nowSeconds(),
    lastUsedAt: existing?.lastUsedAt ?? null,
  };
  await repositories.apiKeys.save(
    appId ? { ...common, kind: "app", appId } : { ...common, kind: "dataset", appId: null },
  );
  summary.apiKeys += 1;
}
