import { Kysely, PostgresDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { postgresMigrations } from "../migrations/index.js";

/** A connection to the schema at `url` and a migrator of it, for a migration's tests to step through releases. */
export async function migrationsAt(url: string): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }),
  });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({ db, provider: postgresMigrations, migrationTableSchema: rows[0]?.schema });
  return { db, migrator };
}
