import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, requirePostgresForTests } from "@service-api/adapters-postgres/testing";
import { aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { openStore, redactedDatabaseUrl, storeKindOf } from "./open-store.js";

describe("storeKindOf", () => {
  it.each([
    ["postgres://u@h/db", "postgres"],
    ["postgresql://u:p@h:5432/db?sslmode=require", "postgres"],
    ["POSTGRES://h/db", "postgres"],
    ["file:/srv/kb.sqlite", "sqlite"],
    ["./data/kb.sqlite", "sqlite"],
    ["/srv/postgres/kb.sqlite", "sqlite"],
  ])("reads %s as %s", (url, kind) => {
    expect(storeKindOf(url)).toBe(kind);
  });
});

describe("redactedDatabaseUrl", () => {
  it("hides a password and leaves the rest", () => {
    expect(redactedDatabaseUrl("postgres://app:s3cret@db:5432/kb")).toBe("postgres://app:***@db:5432/kb");
    expect(redactedDatabaseUrl("postgres://app@db/kb")).toBe("postgres://app@db/kb");
    expect(redactedDatabaseUrl("file:./data/kb.sqlite")).toBe("file:./data/kb.sqlite");
  });
});

const postgres = await requirePostgresForTests();

describe("openStore", () => {
  it("opens SQLite for a file URL", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-stores-"));
    try {
      const store = await openStore({ databaseUrl: `file:${join(directory, "kb.sqlite")}` });
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync("/proc/self/maps"))("passes SQLite its tuning", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-stores-"));
    const path = join(directory, "mapped.sqlite");
    try {
      const store = await openStore({ databaseUrl: path, sqlite: { mmapSizeBytes: 2 ** 20 } });
      await store.ping();
      const mapped = readFileSync("/proc/self/maps", "utf8").split("\n");
      expect(mapped.some((line) => line.endsWith(` ${path}`))).toBe(true);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgres)("opens PostgreSQL for a postgres:// URL", async () => {
    const database = await createTestDatabase();
    try {
      const store = await openStore({ databaseUrl: database.url, pool: { max: 2 } });
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
      await store.close();
    } finally {
      await database.drop();
    }
  });
});

describe("storeOptionsFromEnvironment", () => {
  it("reads the URL, the pool bounds and SQLite's tuning, with defaults", async () => {
    const { storeOptionsFromEnvironment } = await import("./store-environment.js");
    expect(storeOptionsFromEnvironment({})).toEqual({
      databaseUrl: "file:./data/service-api.sqlite",
      pool: {
        max: 10,
        connectionTimeoutMs: 5000,
        statementTimeoutMs: 15000,
        idleTimeoutMs: 30000,
        namedStatements: 200,
      },
      postgres: { fieldCountFoldMs: 10_000 },
      sqlite: { mmapSizeBytes: 0, busyTimeoutMs: 5000, synchronous: "normal" },
    });
    expect(storeOptionsFromEnvironment({ DATABASE_FIELD_COUNT_FOLD_MS: "0" }).postgres).toEqual({
      fieldCountFoldMs: 0,
    });
    // Past a day, a timer's range is near (past it, Node fires every millisecond): refused.
    expect(() => storeOptionsFromEnvironment({ DATABASE_FIELD_COUNT_FOLD_MS: "2147483648" })).toThrow(
      "DATABASE_FIELD_COUNT_FOLD_MS: expected a whole number ≥ 0 and ≤ 86400000",
    );
    expect(
      storeOptionsFromEnvironment({
        SQLITE_MMAP_SIZE: "1073741824",
        SQLITE_BUSY_TIMEOUT_MS: "250",
        SQLITE_SYNCHRONOUS: "Full",
      }).sqlite,
    ).toEqual({ mmapSizeBytes: 2 ** 30, busyTimeoutMs: 250, synchronous: "full" });
    expect(
      storeOptionsFromEnvironment({
        DATABASE_URL: "postgres://h/db",
        DATABASE_POOL_MAX: "3",
        DATABASE_STATEMENT_TIMEOUT_MS: "",
        DATABASE_NAMED_STATEMENTS: "0",
      }).pool,
    ).toMatchObject({ max: 3, statementTimeoutMs: 15000, namedStatements: 0 });
  });

  it("names every bad bound", async () => {
    const { storeOptionsFromEnvironment } = await import("./store-environment.js");
    expect(() =>
      storeOptionsFromEnvironment({
        DATABASE_POOL_MAX: "0",
        DATABASE_CONNECT_TIMEOUT_MS: "soon",
        SQLITE_MMAP_SIZE: "-1",
        SQLITE_BUSY_TIMEOUT_MS: "-5",
        SQLITE_SYNCHRONOUS: "off",
      }),
    ).toThrow(
      /DATABASE_POOL_MAX: .*DATABASE_CONNECT_TIMEOUT_MS: .*SQLITE_SYNCHRONOUS: .*SQLITE_MMAP_SIZE: .*SQLITE_BUSY_TIMEOUT_MS: /,
    );
  });
});
