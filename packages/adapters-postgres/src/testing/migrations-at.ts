import type { Dataset } from "@service-api/domain";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { Migrator } from "kysely/migration";
import pg from "pg";
import { migratorOf } from "../migrations/index.js";

/** A connection to the schema at `url` and a migrator of it, for a migration's tests to step through releases. */
export async function migrationsAt(url: string): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const pool = new pg.Pool({ connectionString: url });
  // A connection still ending when its database is dropped errs: heard, not the end of the run.
  pool.on("error", () => {});
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return { db, migrator: await migratorOf(db) };
}

/**
 * Stores a dataset as the schema held one from migration 0006 to 0015, before datasets had their
 * technique, permission and retrieval model (0016): for a test that seeds an earlier release.
 */
export async function saveDatasetAsBefore0016(db: Kysely<unknown>, dataset: Dataset): Promise<void> {
  const rule = dataset.processRule;
  await sql`insert into datasets (id, workspace_id, name, enable_api, built_in_field_enabled,
      process_rule_id, process_rule_mode, process_rule_rules, description, created_by, updated_by,
      created_at, updated_at)
    values (${dataset.id}, ${dataset.workspaceId}, ${dataset.name}, ${dataset.enableApi},
      ${dataset.builtInFieldEnabled}, ${rule?.id ?? null}, ${rule?.mode ?? null},
      ${rule ? JSON.stringify(rule.rules) : null}, ${dataset.description}, ${dataset.createdBy},
      ${dataset.updatedBy}, ${dataset.createdAt}, ${dataset.updatedAt})`.execute(db);
}
