import { describe, expect, it } from "vitest";
import { adminStoreOptions } from "../src/runtime.js";

describe("a command's store options", () => {
  it("wait for locks without a statement time-out on PostgreSQL, unless one is given", () => {
    const url = "postgres://kb@db/kb";
    expect(adminStoreOptions({ DATABASE_URL: url }).pool.statementTimeoutMs).toBe(0);
    expect(
      adminStoreOptions({ DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: "" }).pool.statementTimeoutMs,
    ).toBe(0);
    expect(
      adminStoreOptions({ DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: "2500" }).pool.statementTimeoutMs,
    ).toBe(2500);
  });

  it("wait for locks without a lock time-out on PostgreSQL, unless one is given", () => {
    const url = "postgres://kb@db/kb";
    expect(adminStoreOptions({ DATABASE_URL: url }).pool.lockTimeoutMs).toBe(0);
    expect(adminStoreOptions({ DATABASE_URL: url, DATABASE_LOCK_TIMEOUT_MS: "" }).pool.lockTimeoutMs).toBe(0);
    expect(
      adminStoreOptions({ DATABASE_URL: url, DATABASE_LOCK_TIMEOUT_MS: "1500" }).pool.lockTimeoutMs,
    ).toBe(1500);
    // With a statement time-out, below it, so that a lock wait ends as a lock, not as a cut statement.
    expect(
      adminStoreOptions({ DATABASE_URL: url, DATABASE_STATEMENT_TIMEOUT_MS: "3000" }).pool.lockTimeoutMs,
    ).toBe(1500);
    // Above the server's statement time-out (15 s), but a command has none unless given.
    expect(
      adminStoreOptions({ DATABASE_URL: url, DATABASE_LOCK_TIMEOUT_MS: "60000" }).pool.lockTimeoutMs,
    ).toBe(60000);
  });

  it("keep the server's other settings", () => {
    const options = adminStoreOptions({ DATABASE_URL: "postgres://kb@db/kb", DATABASE_POOL_MAX: "3" });
    expect(options.pool).toMatchObject({ max: 3, connectionTimeoutMs: 5_000 });
    expect(adminStoreOptions({ SQLITE_BUSY_TIMEOUT_MS: "700" }).sqlite.busyTimeoutMs).toBe(700);
  });
});
