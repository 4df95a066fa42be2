import { describe, expect, it } from "vitest";
import { sqlitePathOf } from "./sqlite-location.js";

describe("sqlitePathOf", () => {
  it.each([
    ["./data/kb.sqlite", "./data/kb.sqlite"],
    ["/srv/kb.sqlite", "/srv/kb.sqlite"],
    ["file:/srv/kb.sqlite", "/srv/kb.sqlite"],
    ["file:///srv/kb.sqlite", "/srv/kb.sqlite"],
    ["file:./data/kb.sqlite", "./data/kb.sqlite"],
    ["file:/srv/my%20kb.sqlite?mode=rwc", "/srv/my kb.sqlite"],
    [":memory:", ":memory:"],
  ])("reads %s as %s", (url, path) => {
    expect(sqlitePathOf(url)).toBe(path);
  });

  it("refuses a file: URL without a path", () => {
    expect(() => sqlitePathOf("file:")).toThrow(/names no file/);
  });
});
