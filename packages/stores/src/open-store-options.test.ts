import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, requirePostgresForTests } from "@service-api/adapters-postgres/testing";
import type { Store } from "@service-api/ports";
import { aWorkspace } from "@service-api/ports/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkStoreOptions, StoreOptionsError } from "./check-store-options.js";
import { openStore, type StoreOptions } from "./open-store.js";

const postgres = await requirePostgresForTests();

/** How `opening` ends within `withinMs`; what it opens is closed, so that nothing is left open. */
async function outcomeOf(opening: Promise<Store>, withinMs: number): Promise<"opened" | "pending" | Error> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<"pending">((resolve) => {
    timer = setTimeout(() => resolve("pending"), withinMs);
  });
  const settled = opening.then(
    async (store) => {
      await store.close();
      return "opened" as const;
    },
    (error: Error) => error,
  );
  try {
    return await Promise.race([settled, pending]);
  } finally {
    clearTimeout(timer);
  }
}

describe("openStore, given options no store can take", () => {
  const previousDirectory = process.cwd();
  let directory = "";
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), "service-api-stores-"));
    process.chdir(directory);
  });
  afterEach(() => {
    process.chdir(previousDirectory);
    rmSync(directory, { recursive: true, force: true });
  });

  /** Nothing listens on port 1: had the options been taken, connecting would fail at once. */
  const NOWHERE = "postgres://kb:s3cret@127.0.0.1:1/kb";
  const ACCEPTED =
    "expected a postgres:// or postgresql:// URL (PostgreSQL), or a path or file: URL (SQLite)";

  it.each<[string, StoreOptions, string]>([
    [
      "a MySQL URL",
      { databaseUrl: "mysql://kb:s3cret@db.internal/kb" },
      `databaseUrl: ${ACCEPTED}, not a mysql: URL`,
    ],
    [
      "a SQLAlchemy URL",
      { databaseUrl: "postgresql+psycopg2://kb:s3cret@host/db" },
      `databaseUrl: ${ACCEPTED}, not a postgresql+psycopg2: URL`,
    ],
    ["a misspelt scheme", { databaseUrl: "postgress://kb:s3cret@host/db" }, "not a postgress: URL"],
    ["an empty URL", { databaseUrl: "" }, `databaseUrl: ${ACCEPTED}, not an empty string`],
    [
      "a negative busy time-out",
      { databaseUrl: "kb.sqlite", sqlite: { busyTimeoutMs: -5 } },
      "sqlite.busyTimeoutMs: expected a whole number ≥ 0 and ≤ 2147483647",
    ],
    [
      "an upper-case durability",
      { databaseUrl: "kb.sqlite", sqlite: { synchronous: "FULL" as "full" } },
      "sqlite.synchronous: expected normal or full, in lower case",
    ],
    [
      "a fractional memory map",
      { databaseUrl: "file:kb.sqlite", sqlite: { mmapSizeBytes: 1.5 } },
      "sqlite.mmapSizeBytes: expected a whole number ≥ 0",
    ],
    [
      "a pool of no connections",
      { databaseUrl: NOWHERE, pool: { max: -1 } },
      "pool.max: expected a whole number ≥ 1",
    ],
    [
      "a negative connection time-out",
      { databaseUrl: NOWHERE, pool: { connectionTimeoutMs: -1 } },
      "pool.connectionTimeoutMs: expected a whole number ≥ 0 and ≤ 2147483647",
    ],
    [
      "a statement time-out past a timer's range",
      { databaseUrl: NOWHERE, pool: { statementTimeoutMs: 2 ** 31 } },
      "pool.statementTimeoutMs: expected a whole number ≥ 0 and ≤ 2147483647",
    ],
    [
      "a fractional fold interval",
      { databaseUrl: NOWHERE, postgres: { fieldCountFoldMs: 0.5 } },
      "postgres.fieldCountFoldMs: expected a whole number ≥ 0 and ≤ 86400000",
    ],
  ])("refuses %s before it connects or creates anything", async (_, options, expected) => {
    const warnings: Error[] = [];
    const heard = (warning: Error) => warnings.push(warning);
    process.on("warning", heard);
    try {
      const outcome = await outcomeOf(openStore(options), 2_000);
      expect(outcome).toBeInstanceOf(StoreOptionsError);
      expect((outcome as Error).message).toContain(expected);
      expect((outcome as Error).message).not.toContain("s3cret");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(readdirSync(directory)).toEqual([]);
    } finally {
      process.off("warning", heard);
    }
  });

  it.each(["kb.sqlite", "./data/kb.sqlite", "C:\\kb.sqlite", "./mysql:kb.sqlite"])(
    "still opens the plain path %s",
    async (databaseUrl) => {
      expect(() => checkStoreOptions({ databaseUrl })).not.toThrow();
      const store = await openStore({ databaseUrl });
      await store.ping();
      await store.close();
      expect(existsSync(join(directory, databaseUrl))).toBe(true);
    },
  );
});

describe("openStore, given options at their limits", () => {
  const limits = {
    pool: {
      max: 1,
      connectionTimeoutMs: 2 ** 31 - 1,
      statementTimeoutMs: 0,
      lockTimeoutMs: 0,
      idleTimeoutMs: 0,
      namedStatements: 0,
      openTimeoutMs: 2 ** 31 - 1,
    },
    postgres: { fieldCountFoldMs: 86_400_000 },
    sqlite: { mmapSizeBytes: 0, busyTimeoutMs: 2 ** 31 - 1, synchronous: "full" },
  } satisfies StoreOptions;

  /** Options at their limits pass the check, open a store, and it serves. */
  async function expectToOpenAndServe(options: StoreOptions) {
    expect(() => checkStoreOptions(options)).not.toThrow();
    const store = await openStore(options);
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
    await store.close();
  }

  it("opens SQLite", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-stores-"));
    try {
      const options = { ...limits, databaseUrl: `file:${join(directory, "kb.sqlite")}` };
      await expectToOpenAndServe(options);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgres)("opens PostgreSQL", async () => {
    const database = await createTestDatabase();
    try {
      const options = { ...limits, databaseUrl: database.url };
      await expectToOpenAndServe(options);
    } finally {
      await database.drop();
    }
  });

  it("keeps the default connection time-out for one given as undefined", async () => {
    // A server that takes connections and never answers: only the time-out ends the wait.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      const opening = openStore({
        databaseUrl: `postgres://kb@127.0.0.1:${port}/kb`,
        pool: { connectionTimeoutMs: undefined },
      });
      expect(await outcomeOf(opening, 10_000)).toBeInstanceOf(Error);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
