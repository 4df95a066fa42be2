import { describe, expect, it } from "vitest";
import { canonicalUuid, isPossibleId, lookupId, NO_ID } from "./ids.js";

describe("isPossibleId", () => {
  it.each(["0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a41", "not-a-uuid", "", "émoji 🎉"])(
    "takes any text a store can hold, such as %j",
    (id) => {
      expect(isPossibleId(id)).toBe(true);
    },
  );

  it.each([undefined, null, 42, {}, ["a"], "a\u0000b", "lone \ud800", "\udc00"])(
    "finds that %j can name nothing",
    (value) => {
      expect(isPossibleId(value)).toBe(false);
    },
  );
});

describe("lookupId", () => {
  it("keeps an id that can name something and looks up anything else as NO_ID", () => {
    expect(lookupId("doc-1")).toBe("doc-1");
    for (const value of [undefined, 7, "a\u0000b", "\ud800"]) expect(lookupId(value)).toBe(NO_ID);
  });
});

describe("canonicalUuid", () => {
  it("writes a UUID in any case, hyphens optional, as stored ids are written", () => {
    const stored = "3f2a9c1e-0b4d-4e8f-9a7b-1c2d3e4f5a6b";
    expect(canonicalUuid(stored)).toBe(stored);
    expect(canonicalUuid(stored.toUpperCase())).toBe(stored);
    expect(canonicalUuid(stored.replaceAll("-", ""))).toBe(stored);
  });

  it("reads anything else as no UUID", () => {
    for (const text of [
      "",
      "demo",
      "3f2a9c1e-0b4d-4e8f-9a7b-1c2d3e4f5a6",
      "3f2a9c1e-0b4d-4e8f-9a7b-1c2d3e4f5a6bb",
    ])
      expect(canonicalUuid(text)).toBeUndefined();
  });
});
