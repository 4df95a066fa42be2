/**
 * What migration 0004's triggers watch, in both SQL stores: each table whose change or deletion can
 * change what an API key grants, with the columns that matter (all when absent). A key's
 * `last_used_at` is left out, so recording a use does not make every process read keys again.
 */
export const ACCESS_SOURCES: readonly (readonly [table: string, columns?: readonly string[]])[] = [
  ["api_keys", ["kind", "workspace_id", "app_id", "token_hash"]],
  ["apps"],
  ["workspaces"],
];
