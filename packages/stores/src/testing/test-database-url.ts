import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@service-api/adapters-postgres/testing";
import type { StoreKind } from "../open-store.js";

/** The store a suite runs on: `SERVICE_API_TEST_STORE=postgres` runs it on PostgreSQL, else SQLite. */
export const TEST_STORE: StoreKind =
  process.env.SERVICE_API_TEST_STORE === "postgres" ? "postgres" : "sqlite";

export interface TestDatabaseUrl {
  databaseUrl: string;
  /** Removes the database (the SQLite file's folder, or the PostgreSQL database). */
  drop(): Promise<void>;
}

/** A new, empty database of the store under test: a SQLite file in a temp folder, or a PostgreSQL database. */
export async function createTestDatabaseUrl(): Promise<TestDatabaseUrl> {
  if (TEST_STORE === "postgres") {
    const database = await createTestDatabase();
    return { databaseUrl: database.url, drop: database.drop };
  }
  const directory = mkdtempSync(join(tmpdir(), "service-api-test-"));
  return {
    databaseUrl: `file:${join(directory, "service-api.sqlite")}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}
