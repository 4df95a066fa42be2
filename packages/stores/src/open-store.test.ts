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

  it.each([
    ["postgres://kb:hun@ter2@db/kb", "postgres://kb:***@db/kb"],
    ["postgres://kb@db/kb?password=hunter2", "postgres://kb@db/kb?password=***"],
    [
      "postgres://kb@db/kb?sslmode=require&PASSWORD=a&sslpassword=b#x",
      "postgres://kb@db/kb?sslmode=require&PASSWORD=***&sslpassword=***#x",
    ],
    ["postgres://db/kb?options=-c%20x%3Dy", "postgres://db/kb?options=-c%20x%3Dy"],
    ["postgres://kb:p%40ss@db:5432", "postgres://kb:***@db:5432"],
    ["postgres://kb@db/kb?pass%77ord=hunter2", "postgres://kb@db/kb?pass%77ord=***"],
  ])("hides every password pg would read in %s", (url, redacted) => {
    expect(redactedDatabaseUrl(url)).toBe(redacted);
  });

  it("hides the password of a URL whose scheme has digits, plus signs, dots or hyphens", () => {
    expect(redactedDatabaseUrl("postgresql+psycopg2://kb:s3cret@host/db")).toBe(
      "postgresql+psycopg2://kb:***@host/db",
    );
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
