import type { Kysely } from "kysely";

/**
 * Indexes for the listings that export and key administration read, one per owner column: the
 * same statements in every dialect, so both adapters list this migration as their second.
 */
const INDEXES = [
  ["members_by_workspace", "members", "workspace_id"],
  ["api_keys_by_workspace", "api_keys", "workspace_id"],
  ["api_keys_by_app", "api_keys", "app_id"],
  ["datasets_by_workspace", "datasets", "workspace_id"],
  ["tags_by_workspace", "tags", "workspace_id"],
  ["apps_by_workspace", "apps", "workspace_id"],
  ["conversations_by_app", "conversations", "app_id"],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES) {
    await db.schema.createIndex(name).on(table).column(column).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
