import { describe, expect, it } from "vitest";
import { checkStoreOptions } from "./check-store-options.js";
import { StoreEnvironmentError, storeOptionsFromEnvironment } from "./store-environment.js";

describe("storeOptionsFromEnvironment", () => {
  it("reads the URL, the pool bounds and SQLite's tuning, with defaults", () => {
    expect(storeOptionsFromEnvironment({})).toEqual({
      databaseUrl: "file:./data/service-api.sqlite",
      pool: {
        max: 10,
        connectionTimeoutMs: 5000,
        statementTimeoutMs: 15000,
        lockTimeoutMs: 5000,
        idleTimeoutMs: 30000,
        namedStatements: 200,
        openTimeoutMs: 30000,
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
        DATABASE_OPEN_TIMEOUT_MS: "0",
      }).pool,
    ).toMatchObject({ max: 3, statementTimeoutMs: 15000, namedStatements: 0, openTimeoutMs: 0 });
  });

  it("takes a lock time-out below the statement time-out when none is given, and refuses one that is not", () => {
    const lock = (environment: Record<string, string>) =>
      storeOptionsFromEnvironment(environment).pool.lockTimeoutMs;
    expect(lock({})).toBe(5000);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "3000" })).toBe(1500);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "1" })).toBe(1);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "0" })).toBe(5000);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "3000", DATABASE_LOCK_TIMEOUT_MS: "2999" })).toBe(2999);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "3000", DATABASE_LOCK_TIMEOUT_MS: "0" })).toBe(0);
    expect(lock({ DATABASE_STATEMENT_TIMEOUT_MS: "0", DATABASE_LOCK_TIMEOUT_MS: "60000" })).toBe(60000);
    const outage = "or 0: the statement time-out would end every lock wait first, as an outage";
    expect(() =>
      storeOptionsFromEnvironment({
        DATABASE_STATEMENT_TIMEOUT_MS: "3000",
        DATABASE_LOCK_TIMEOUT_MS: "3000",
      }),
    ).toThrow(`DATABASE_LOCK_TIMEOUT_MS: expected less than DATABASE_STATEMENT_TIMEOUT_MS (3000), ${outage}`);
    expect(() => storeOptionsFromEnvironment({ DATABASE_LOCK_TIMEOUT_MS: "20000" })).toThrow(
      `DATABASE_LOCK_TIMEOUT_MS: expected less than DATABASE_STATEMENT_TIMEOUT_MS, unset, whose default is (15000), ${outage}`,
    );
    // Named beside another bad variable, as every bad variable is.
    expect(() =>
      storeOptionsFromEnvironment({
        DATABASE_POOL_MAX: "0",
        DATABASE_STATEMENT_TIMEOUT_MS: "3000",
        DATABASE_LOCK_TIMEOUT_MS: "3000",
      }),
    ).toThrow(/DATABASE_POOL_MAX: .*; DATABASE_LOCK_TIMEOUT_MS: expected less than/);
    // Defaults of the caller's own (a command's: no statement time-out) count as given.
    expect(
      storeOptionsFromEnvironment(
        { DATABASE_LOCK_TIMEOUT_MS: "20000" },
        { statementTimeoutMs: 0, lockTimeoutMs: 0 },
      ).pool,
    ).toMatchObject({ statementTimeoutMs: 0, lockTimeoutMs: 20000 });
  });

  it("names every bad bound", () => {
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

  const ACCEPTED =
    "expected a postgres:// or postgresql:// URL (PostgreSQL), or a path or file: URL (SQLite)";

  it.each([
    ["mysql://kb:s3cret@db.internal/kb", "mysql"],
    ["postgresql+psycopg2://kb:s3cret@host/db", "postgresql+psycopg2"],
    ["postgress://kb:s3cret@host/db", "postgress"],
  ])("refuses DATABASE_URL=%s, naming the variable and not the password", (url, scheme) => {
    const read = () => storeOptionsFromEnvironment({ DATABASE_URL: url });
    expect(read).toThrow(StoreEnvironmentError);
    expect(read).toThrow(`DATABASE_URL: ${ACCEPTED}, not a ${scheme}: URL`);
    expect(read).not.toThrow(/s3cret/);
  });

  it("keeps an empty DATABASE_URL unset, but refuses one of spaces", () => {
    expect(storeOptionsFromEnvironment({ DATABASE_URL: "" }).databaseUrl).toBe(
      "file:./data/service-api.sqlite",
    );
    expect(() => storeOptionsFromEnvironment({ DATABASE_URL: " " })).toThrow(
      `DATABASE_URL: ${ACCEPTED}, without spaces around it`,
    );
    expect(storeOptionsFromEnvironment({ DATABASE_URL: "C:\\data\\kb.sqlite" }).databaseUrl).toBe(
      "C:\\data\\kb.sqlite",
    );
  });

  it("reads FILES_DIR as the files directory, keeps an empty one unset, and refuses one of spaces", () => {
    expect(storeOptionsFromEnvironment({ FILES_DIR: "/srv/files" }).filesDir).toBe("/srv/files");
    expect(storeOptionsFromEnvironment({ FILES_DIR: "./data/files" }).filesDir).toBe("./data/files");
    expect(storeOptionsFromEnvironment({ FILES_DIR: "" })).not.toHaveProperty("filesDir");
    expect(storeOptionsFromEnvironment({})).not.toHaveProperty("filesDir");
    expect(() => storeOptionsFromEnvironment({ FILES_DIR: "/srv/files " })).toThrow(
      "FILES_DIR: expected the path of a directory, without spaces around it",
    );
  });

  it("refuses a time-out longer than Node's timers hold (2147483647 ms)", () => {
    for (const variable of [
      "DATABASE_CONNECT_TIMEOUT_MS",
      "DATABASE_STATEMENT_TIMEOUT_MS",
      "DATABASE_LOCK_TIMEOUT_MS",
      "DATABASE_IDLE_TIMEOUT_MS",
      "SQLITE_BUSY_TIMEOUT_MS",
    ]) {
      expect(() => storeOptionsFromEnvironment({ [variable]: "2147483648" })).toThrow(
        `${variable}: expected a whole number ≥ 0 and ≤ 2147483647`,
      );
      // The lock time-out at its limit, with no statement time-out to stay below.
      const noStatementLimit =
        variable === "DATABASE_LOCK_TIMEOUT_MS" ? { DATABASE_STATEMENT_TIMEOUT_MS: "0" } : {};
      expect(() =>
        storeOptionsFromEnvironment({ ...noStatementLimit, [variable]: "2147483647" }),
      ).not.toThrow();
    }
  });

  it("reads a whole number only from plain decimal digits, never a blank as 0", () => {
    for (const value of [" ", "+5", "5.0", "1e3", "0x10", " 5"])
      expect(() => storeOptionsFromEnvironment({ DATABASE_STATEMENT_TIMEOUT_MS: value }), value).toThrow(
        "DATABASE_STATEMENT_TIMEOUT_MS: expected a whole number ≥ 0 and ≤ 2147483647",
      );
  });

  it("reads options that checkStoreOptions accepts, at every limit", () => {
    const highest = {
      DATABASE_CONNECT_TIMEOUT_MS: "2147483647",
      DATABASE_STATEMENT_TIMEOUT_MS: "2147483647",
      // Below the statement time-out, where a lock time-out takes effect.
      DATABASE_LOCK_TIMEOUT_MS: "2147483646",
      DATABASE_IDLE_TIMEOUT_MS: "2147483647",
      DATABASE_FIELD_COUNT_FOLD_MS: "86400000",
      SQLITE_BUSY_TIMEOUT_MS: "2147483647",
      SQLITE_SYNCHRONOUS: "FULL",
    };
    const lowest = { DATABASE_POOL_MAX: "1", DATABASE_FIELD_COUNT_FOLD_MS: "0", SQLITE_BUSY_TIMEOUT_MS: "0" };
    for (const environment of [{}, highest, lowest])
      expect(() => checkStoreOptions(storeOptionsFromEnvironment(environment))).not.toThrow();
  });
});
