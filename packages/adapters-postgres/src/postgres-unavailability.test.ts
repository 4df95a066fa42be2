import { describe, expect, it } from "vitest";
import { isPostgresConflict, isPostgresUnavailable } from "./postgres-unavailability.js";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("isPostgresUnavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset connection", withCode("ECONNRESET")],
    ["both addresses refused", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])],
    [
      "a terminated backend (57P01)",
      withCode("57P01", "terminating connection due to administrator command"),
    ],
    ["a server starting up (57P03)", withCode("57P03")],
    ["too many connections (53300)", withCode("53300")],
    ["a connection failure (08006)", withCode("08006")],
    ["a statement time-out (57014)", withCode("57014")],
    ["a database that only reads (25006)", withCode("25006")],
    ["a login refused (28000)", withCode("28000")],
    ["a password refused (28P01)", withCode("28P01")],
    ["a dropped database (57P04)", withCode("57P04")],
    ["a dropped connection", new Error("Connection terminated unexpectedly")],
    ["a pool out of connections", new Error("timeout exceeded when trying to connect")],
    ["a broken client", new Error("Client has encountered a connection error and is not queryable")],
  ])("counts %s", (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
  });

  it.each([
    ["a deadlock (40P01), which is a conflict", withCode("40P01")],
    ["a serialization failure (40001), which is a conflict", withCode("40001")],
    ["a unique violation (23505)", withCode("23505")],
    ["a syntax error (42601)", withCode("42601")],
    ["a bad byte in text (22021)", withCode("22021")],
    ["a plain error", new Error("boom")],
    ["something not an error", "ECONNREFUSED"],
  ])("does not count %s", (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
  });
});

describe("isPostgresConflict", () => {
  it("counts deadlocks, serialization failures and connections ended for idleness, and nothing else", () => {
    expect(isPostgresConflict(withCode("40P01"))).toBe(true);
    expect(isPostgresConflict(withCode("40001"))).toBe(true);
    expect(isPostgresConflict(withCode("57P05"))).toBe(true);
    expect(isPostgresConflict(withCode("57P01"))).toBe(false);
    expect(isPostgresConflict(withCode("23505"))).toBe(false);
    expect(isPostgresConflict(withCode("ECONNREFUSED"))).toBe(false);
    expect(isPostgresConflict("40P01")).toBe(false);
  });
});
