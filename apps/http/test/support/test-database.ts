import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, requirePostgresForTests } from "@service-api/adapters-postgres/testing";
import { sqlitePathOf } from "@service-api/adapters-sqlite";
import Database from "better-sqlite3";
import pg from "pg";

/** The store this run of the suite uses: `SERVICE_API_TEST_STORE=postgres` runs it on PostgreSQL. */
export const TEST_STORE: "sqlite" | "postgres" =
  process.env.SERVICE_API_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** Whether this run can use its store; PostgreSQL missing in CI fails, elsewhere it skips. */
export const testStoreAvailable = TEST_STORE === "sqlite" || (await requirePostgresForTests());

export interface TestDatabaseUrl {
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A new, empty database of the store under test: a SQLite file in a temp folder, or a PostgreSQL database. */
export async function createTestDatabaseUrl(): Promise<TestDatabaseUrl> {
  if (TEST_STORE === "postgres") {
    const database = await createTestDatabase();
    return { databaseUrl: database.url, drop: database.drop };
  }
  const directory = mkdtempSync(join(tmpdir(), "service-api-http-"));
  return {
    databaseUrl: `file:${join(directory, "service-api.sqlite")}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** Runs one SQL statement behind the service's back, for tests that damage data on purpose. */
export async function runSql(databaseUrl: string, statement: string, parameters: unknown[]): Promise<void> {
  if (TEST_STORE === "sqlite") {
    const database = new Database(sqlitePathOf(databaseUrl));
    database.prepare(statement.replaceAll(/\$\d+/g, "?")).run(...parameters);
    database.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(statement, parameters);
  await client.end();
}
