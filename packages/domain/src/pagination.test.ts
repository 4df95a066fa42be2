import { describe, expect, it } from "vitest";
import { ensurePageRequest, offsetOf, pageOf, parseLimit, parsePage } from "./pagination.js";
import { matchesTextFilter } from "./text-filter.js";

describe("parsePage and parseLimit", () => {
  it("default to the first page of 20", () => {
    expect([parsePage(undefined), parseLimit(undefined)]).toEqual([1, 20]);
    expect([parsePage("3"), parseLimit("100")]).toEqual([3, 100]);
  });

  it.each(["0", "-1", "+1", "1.0", " 1", "1 ", "one", ""])("refuses page %j", (page) => {
    expect(() => parsePage(page)).toThrow("page: must be an integer of at least 1.");
  });

  it.each(["0", "101", "500", "+5", "5.0", "x", ""])("refuses limit %j", (limit) => {
    expect(() => parseLimit(limit)).toThrow("limit: must be an integer from 1 to 100.");
  });

  it("takes pages up to the largest exact integer, and no further", () => {
    expect(parsePage(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const page of ["9007199254740992", "99999999999999999999"])
      expect(() => parsePage(page)).toThrow(`page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`);
  });

  it("holds an offset past any list at the largest exact integer", () => {
    expect(offsetOf({ page: Number.MAX_SAFE_INTEGER, limit: 100 })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("has more when a later page holds items", () => {
    expect(pageOf([], 41, { page: 2, limit: 20 }).hasMore).toBe(true);
    expect(pageOf([], 40, { page: 2, limit: 20 }).hasMore).toBe(false);
    expect(offsetOf({ page: 3, limit: 20 })).toBe(40);
  });
});

describe("ensurePageRequest", () => {
  it("takes a page of at least 1 and a limit from 1 to 100", () => {
    expect(ensurePageRequest({ page: 1, limit: 1 })).toEqual({ page: 1, limit: 1 });
    expect(ensurePageRequest({ page: Number.MAX_SAFE_INTEGER, limit: 100 })).toEqual({
      page: Number.MAX_SAFE_INTEGER,
      limit: 100,
    });
  });

  it.each([
    [{ page: 0, limit: 20 }, "page: must be an integer of at least 1."],
    [{ page: -1, limit: 20 }, "page: must be an integer of at least 1."],
    [{ page: 1.5, limit: 20 }, "page: must be an integer of at least 1."],
    [{ page: Number.NaN, limit: 20 }, "page: must be an integer of at least 1."],
    [{ page: "1", limit: 20 }, "page: must be an integer of at least 1."],
    [{ limit: 20 }, "page: must be an integer of at least 1."],
    [undefined, "page: must be an integer of at least 1."],
    [{ page: 2 ** 53, limit: 20 }, `page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`],
    [{ page: 1, limit: 0 }, "limit: must be an integer from 1 to 100."],
    [{ page: 1, limit: 101 }, "limit: must be an integer from 1 to 100."],
    [{ page: 1, limit: 1e9 }, "limit: must be an integer from 1 to 100."],
    [{ page: 1, limit: "x" }, "limit: must be an integer from 1 to 100."],
    [{ page: 1 }, "limit: must be an integer from 1 to 100."],
  ])("refuses %j, the page first", (request, message) => {
    expect(() => ensurePageRequest(request)).toThrow(
      expect.objectContaining({ code: "invalid_param", message }),
    );
  });
});

describe("matchesTextFilter", () => {
  it.each([
    ["Getting Started.md", "started", true],
    ["Getting Started.md", "STARTED", true],
    ["Über uns", "über", false],
    ["Über uns", "ÜBER", true],
    ["Über uns", "üBER", false],
    ["100% done", "0%", true],
    ["100 done", "0%", false],
    ["a_b", "_", true],
    ["ab", "_", false],
    ["back\\slash", "\\", true],
    ["anything", "", true],
  ])("%j contains %j: %s", (text, filter, expected) => {
    expect(matchesTextFilter(text, filter)).toBe(expected);
  });
});

describe("parseCappedLimit", () => {
  it("serves a limit above 100 as 100, and refuses 0 and what is not digits", async () => {
    const { parseCappedLimit } = await import("./pagination.js");
    expect(parseCappedLimit(undefined)).toBe(20);
    expect(parseCappedLimit("1")).toBe(1);
    expect(parseCappedLimit("100")).toBe(100);
    expect(parseCappedLimit("250")).toBe(100);
    for (const bad of ["0", "-1", "1.5", " 5", "x", ""])
      expect(() => parseCappedLimit(bad), bad).toThrow("limit: must be an integer of at least 1.");
  });
});
