import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";
import { ensureWritable, namingTheFile, SqliteFileError } from "./sqlite-file.js";
import { isSqliteUnavailable } from "./sqlite-unavailability.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-sqlite-file-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the SQLite file of a store", () => {
  it("is refused, by name, when this process may only read it", () => {
    const path = join(directory, "read-only.sqlite");
    new Database(path).close();
    // What SQLite falls back to, without a word, for a file the process may not write.
    const database = new Database(path, { readonly: true });
    try {
      expect(() => ensureWritable(database, path, 5000)).toThrow(SqliteFileError);
      expect(() => ensureWritable(database, path, 5000)).toThrow(
        `The SQLite database ${path} is read-only to this process`,
      );
      expect(database.inTransaction).toBe(false);
      expect(database.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      database.close();
    }
  });

  it("says a file is read-only whichever statement met the refusal first (WAL mode, say)", () => {
    const path = join(directory, "refused.sqlite");
    const refusal = Object.assign(new Error("attempt to write a readonly database"), {
      code: "SQLITE_READONLY_DIRECTORY",
    });
    const error = namingTheFile(path, refusal);
    expect(error).toBeInstanceOf(SqliteFileError);
    expect(error.message).toContain(`The SQLite database ${path} is read-only to this process`);
    expect(error.cause).toBe(refusal);
  });

  it("passes a writable file, leaving it as it was", () => {
    const path = join(directory, "writable.sqlite");
    const database = new Database(path);
    database.pragma("user_version = 7");
    ensureWritable(database, path, 1234);
    expect(database.pragma("user_version", { simple: true })).toBe(7);
    expect(database.pragma("busy_timeout", { simple: true })).toBe(1234);
    expect(database.inTransaction).toBe(false);
    database.close();
  });

  it("passes a file another connection is writing, without waiting for it", () => {
    const path = join(directory, "busy.sqlite");
    const writer = new Database(path);
    writer.pragma("journal_mode = WAL");
    writer.exec("create table t (a); begin immediate; insert into t values (1)");
    const database = new Database(path);
    try {
      const started = performance.now();
      ensureWritable(database, path, 60_000);
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      writer.exec("rollback");
      writer.close();
      database.close();
    }
  });

  it("names the file when it cannot be opened at all", async () => {
    const path = join(directory, "a-folder.sqlite");
    mkdirSync(path);
    const opening = openSqliteStore({ databaseUrl: path });
    await expect(opening).rejects.toBeInstanceOf(SqliteFileError);
    await expect(opening).rejects.toThrow(`The SQLite database ${path} cannot be opened:`);
  });

  it("counts a file made read-only while open as unavailable, not as a failed statement", () => {
    expect(isSqliteUnavailable({ code: "SQLITE_READONLY" })).toBe(true);
    expect(isSqliteUnavailable({ code: "SQLITE_READONLY_DBMOVED" })).toBe(true);
  });
});
