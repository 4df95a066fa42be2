import { sqlitePathOf } from "@service-api/adapters-sqlite";
import { TEST_STORE } from "@service-api/stores/testing";
import Database from "better-sqlite3";
import pg from "pg";

export { createTestDatabaseUrl, TEST_STORE, type TestDatabaseUrl } from "@service-api/stores/testing";

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
