import { Kysely, PostgresDialect } from "kysely";
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
