import { StoreUnavailableError } from "@service-api/domain";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { kyselyStore } from "./kysely-store.js";
import type { DatabaseSchema } from "./schema.js";
import type { SqlFeatures } from "./sql-features.js";

const CONFLICT = "lost to a concurrent transaction";
const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A store over an empty SQLite database in memory that counts `CONFLICT` errors as conflicts. */
function storeWithConflicts() {
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: new Database(":memory:") }),
  });
  const store = kyselyStore(db, {
    isUnavailable: () => false,
    isConflict: (error) => error instanceof Error && error.message === CONFLICT,
    features: {} as SqlFeatures,
  });
  stores.push(store);
  return store;
}

describe("a snapshot", () => {
  it("answers a conflict it met as a store that cannot serve now, running its work once", async () => {
    const store = storeWithConflicts();
    let runs = 0;
    const snapshot = store.snapshot(async () => {
      runs += 1;
      throw new Error(CONFLICT);
    });
    await expect(snapshot).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(runs).toBe(1);
  });

  it("passes any other failure on as it is", async () => {
    const store = storeWithConflicts();
    const failure = new Error("the export's file could not be written");
    await expect(store.snapshot(() => Promise.reject(failure))).rejects.toBe(failure);
  });
});
