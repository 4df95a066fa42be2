import { describe, expect, it } from "vitest";
import { checkStoreOptions, StoreOptionsError } from "./check-store-options.js";
import type { StoreOptions } from "./open-store.js";
import { sqliteRuntimeProblem } from "./store-option-rules.js";

const ACCEPTED = "expected a postgres:// or postgresql:// URL (PostgreSQL), or a path or file: URL (SQLite)";
const MILLISECONDS = "expected a whole number ≥ 0 and ≤ 2147483647";
const otherScheme = (scheme: string) =>
  `${ACCEPTED}, not a ${scheme}: URL (for a file of that name, write ./${scheme}:…)`;

const QUERY_NOT_READ =
  "is not read: the store's settings are its own options (write a ? in a file name as %3F)";

/** The error checkStoreOptions throws for `options`, which must be a StoreOptionsError. */
function refusalOf(options: unknown): StoreOptionsError {
  try {
    checkStoreOptions(options as StoreOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(StoreOptionsError);
    return error as StoreOptionsError;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe("checkStoreOptions", () => {
  it.each([
    "postgres://u@h/db",
    "postgresql://u:p@h:5432/db?sslmode=require",
    "POSTGRES://h/db",
    "file:/srv/kb.sqlite",
    "file:///srv/kb.sqlite",
    "file:./data/kb.sqlite",
    "kb.sqlite",
    "./data/kb.sqlite",
    "/srv/postgres/kb.sqlite",
    "C:\\data\\kb.sqlite",
    "C:/data/kb.sqlite",
    ":memory:",
    "./mysql:kb.sqlite",
  ])("accepts the database URL %s", (databaseUrl) => {
    expect(() => checkStoreOptions({ databaseUrl })).not.toThrow();
  });

  it.each([
    ["mysql://kb:s3cret@db.internal/kb", otherScheme("mysql")],
    ["postgresql+psycopg2://kb:s3cret@host/db", otherScheme("postgresql+psycopg2")],
    ["postgress://kb:s3cret@host/db", otherScheme("postgress")],
    ["jdbc:postgresql://kb:s3cret@host/db", otherScheme("jdbc")],
    ["sqlite:///data/kb.sqlite", otherScheme("sqlite")],
    ["FILE:./kb.sqlite", otherScheme("FILE")],
    ["kb:s3cret@db.internal/kb", otherScheme("kb")],
    ["", `${ACCEPTED}, not an empty string`],
    [" postgres://kb:s3cret@host/db", `${ACCEPTED}, without spaces around it`],
    ["./kb.sqlite\n", `${ACCEPTED}, without spaces around it`],
    ["file:", `${ACCEPTED}; this file: URL names no local file`],
    ["file://db.internal/kb.sqlite", `${ACCEPTED}; this file: URL names no local file`],
    [
      "file:/srv/kb.sqlite?mode=ro",
      `${ACCEPTED}; a file: URL's query or fragment (?mode=ro) ${QUERY_NOT_READ}`,
    ],
    ["file:///srv/kb.sqlite#main", `${ACCEPTED}; a file: URL's query or fragment (#main) ${QUERY_NOT_READ}`],
  ])("refuses the database URL %j, naming no more of it than its scheme", (databaseUrl, expected) => {
    const error = refusalOf({ databaseUrl });
    expect(error.problems).toEqual([`databaseUrl: ${expected}`]);
    expect(error.message).toBe(`Invalid store options: databaseUrl: ${expected}`);
    expect(error.message).not.toContain("s3cret");
  });

  it("refuses a lock time-out at or above the statement time-out, which would end every lock wait first", () => {
    const outage = "or 0: the statement time-out would end every lock wait first, as an outage";
    expect(refusalOf({ pool: { lockTimeoutMs: 300, statementTimeoutMs: 300 } }).problems).toEqual([
      `pool.lockTimeoutMs: expected less than pool.statementTimeoutMs (300), ${outage}`,
    ]);
    // The statement time-out's default (15 s) counts when it is not given.
    expect(refusalOf({ pool: { lockTimeoutMs: 15_000 } }).problems).toEqual([
      `pool.lockTimeoutMs: expected less than pool.statementTimeoutMs, unset, whose default is (15000), ${outage}`,
    ]);
    // Named beside another bad option, as every bad option is.
    expect(
      refusalOf({ pool: { max: 0, lockTimeoutMs: 300, statementTimeoutMs: 300 } }).problems,
    ).toHaveLength(2);
    for (const pool of [
      { lockTimeoutMs: 299, statementTimeoutMs: 300 },
      { lockTimeoutMs: 20_000, statementTimeoutMs: 0 },
      { lockTimeoutMs: 0, statementTimeoutMs: 300 },
      { statementTimeoutMs: 1 },
    ])
      expect(() => checkStoreOptions({ pool }), JSON.stringify(pool)).not.toThrow();
  });

  it("accepts every bound and tuning at its limits, and leaves an undefined one to its default", () => {
    const lowest: StoreOptions = {
      pool: {
        max: 1,
        connectionTimeoutMs: 0,
        statementTimeoutMs: 0,
        lockTimeoutMs: 0,
        idleTimeoutMs: 0,
        namedStatements: 0,
        openTimeoutMs: 0,
      },
      postgres: { fieldCountFoldMs: 0 },
      sqlite: { mmapSizeBytes: 0, busyTimeoutMs: 0, synchronous: "normal" },
    };
    const highest: StoreOptions = {
      pool: {
        max: Number.MAX_SAFE_INTEGER,
        connectionTimeoutMs: 2 ** 31 - 1,
        statementTimeoutMs: 2 ** 31 - 1,
        // Below the statement time-out, the only place a lock time-out takes effect.
        lockTimeoutMs: 2 ** 31 - 2,
        idleTimeoutMs: 2 ** 31 - 1,
        namedStatements: Number.MAX_SAFE_INTEGER,
        openTimeoutMs: 2 ** 31 - 1,
      },
      postgres: { fieldCountFoldMs: 86_400_000 },
      sqlite: { mmapSizeBytes: Number.MAX_SAFE_INTEGER, busyTimeoutMs: 2 ** 31 - 1, synchronous: "full" },
    };
    const unset: StoreOptions = {
      databaseUrl: undefined,
      pool: { max: undefined },
      postgres: { fieldCountFoldMs: undefined },
      sqlite: { synchronous: undefined },
    };
    for (const options of [{}, lowest, highest, unset])
      expect(() => checkStoreOptions(options)).not.toThrow();
  });

  const badValues: [string, string, unknown, string][] = [
    ["pool", "max", 0, "expected a whole number ≥ 1"],
    ["pool", "max", -1, "expected a whole number ≥ 1"],
    ["pool", "max", 2.5, "expected a whole number ≥ 1"],
    ["pool", "max", "5", "expected a whole number ≥ 1"],
    ["pool", "connectionTimeoutMs", -1, MILLISECONDS],
    ["pool", "connectionTimeoutMs", 2 ** 31, MILLISECONDS],
    ["pool", "statementTimeoutMs", Number.NaN, MILLISECONDS],
    ["pool", "lockTimeoutMs", -1, MILLISECONDS],
    ["pool", "lockTimeoutMs", 2 ** 31, MILLISECONDS],
    ["pool", "idleTimeoutMs", Number.POSITIVE_INFINITY, MILLISECONDS],
    ["pool", "namedStatements", -1, "expected a whole number ≥ 0"],
    ["pool", "namedStatements", null, "expected a whole number ≥ 0"],
    ["pool", "openTimeoutMs", -1, MILLISECONDS],
    ["pool", "openTimeoutMs", 2 ** 31, MILLISECONDS],
    ["postgres", "fieldCountFoldMs", -1, "expected a whole number ≥ 0 and ≤ 86400000"],
    ["postgres", "fieldCountFoldMs", 0.5, "expected a whole number ≥ 0 and ≤ 86400000"],
    ["postgres", "fieldCountFoldMs", 86_400_001, "expected a whole number ≥ 0 and ≤ 86400000"],
    ["sqlite", "busyTimeoutMs", -5, MILLISECONDS],
    ["sqlite", "busyTimeoutMs", 2 ** 31, MILLISECONDS],
    ["sqlite", "mmapSizeBytes", -1, "expected a whole number ≥ 0"],
    ["sqlite", "mmapSizeBytes", 1.5, "expected a whole number ≥ 0"],
    ["sqlite", "mmapSizeBytes", 2 ** 53, "expected a whole number ≥ 0"],
    ["sqlite", "synchronous", "FULL", "expected normal or full, in lower case"],
    ["sqlite", "synchronous", "off", "expected normal or full, in lower case"],
    ["sqlite", "synchronous", 2, "expected normal or full, in lower case"],
  ];
  const shown = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));
  it.each(badValues.map((bad) => [`${bad[0]}.${bad[1]} = ${shown(bad[2])}`, ...bad] as const))(
    "refuses %s",
    (_, group, name, value, expected) => {
      expect(refusalOf({ [group]: { [name]: value } }).problems).toEqual([`${group}.${name}: ${expected}`]);
    },
  );

  it("accepts a files directory's path, and refuses one that names none", () => {
    for (const filesDir of ["/srv/files", "./data/files", "files", "C:\\data\\files"])
      expect(() => checkStoreOptions({ filesDir }), filesDir).not.toThrow();
    const expected = "filesDir: expected the path of a directory";
    expect(refusalOf({ filesDir: "" }).problems).toEqual([`${expected}, not an empty string`]);
    expect(refusalOf({ filesDir: " /srv/files" }).problems).toEqual([
      `${expected}, without spaces around it`,
    ]);
    expect(refusalOf({ filesDir: "/srv/\0files" }).problems).toEqual([
      `${expected}, without a NUL character`,
    ]);
    expect(refusalOf({ filesDir: 5 }).problems).toEqual([`${expected}, as a string`]);
  });

  it("refuses options of the wrong type", () => {
    expect(refusalOf({ databaseUrl: new URL("postgres://h/db") }).problems).toEqual([
      `databaseUrl: ${ACCEPTED}, as a string`,
    ]);
    expect(refusalOf({ pool: 5, postgres: null, sqlite: ["full"] }).problems).toEqual([
      "pool: expected an object",
      "postgres: expected an object",
      "sqlite: expected an object",
    ]);
  });

  it("names every bad option in one error", () => {
    const error = refusalOf({
      databaseUrl: "mysql://kb@db/kb",
      pool: { max: -1, connectionTimeoutMs: -1 },
      sqlite: { busyTimeoutMs: -5, synchronous: "FULL" },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("StoreOptionsError");
    expect(error.problems.map((problem) => problem.split(":")[0])).toEqual([
      "databaseUrl",
      "pool.max",
      "pool.connectionTimeoutMs",
      "sqlite.busyTimeoutMs",
      "sqlite.synchronous",
    ]);
    expect(error.message).toBe(`Invalid store options: ${error.problems.join("; ")}`);
  });
});

describe("sqliteRuntimeProblem", () => {
  it("refuses SQLite on a Node.js older than 22, whose better-sqlite3 ends the process, naming the version", () => {
    expect(sqliteRuntimeProblem("20.20.2")).toBe(
      "SQLite needs Node.js 22 or later (its driver, better-sqlite3, ends the process on older ones); this is Node.js 20.20.2",
    );
    expect(sqliteRuntimeProblem("21.7.3")).toContain("this is Node.js 21.7.3");
  });

  it("accepts Node.js 22 and later", () => {
    for (const version of ["22.0.0", "24.11.1", "26.0.0"])
      expect(sqliteRuntimeProblem(version)).toBeUndefined();
  });
});
