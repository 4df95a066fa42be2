import type { Kysely } from "kysely";

/**
 * Rate limit windows, for limits shared by every instance on the store: one row per key, with its
 * hits and when its window ends (Unix ms). The same statements in every dialect ("bigint" is an
 * integer in SQLite), so both adapters list this migration as their fifth.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_counters")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("hits", "bigint", (column) => column.notNull())
    .addColumn("reset_at", "bigint", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("rate_limit_counters_by_end")
    .on("rate_limit_counters")
    .column("reset_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_counters").execute();
}
