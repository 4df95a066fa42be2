import { describe, expect, it } from "vitest";
import { isPossibleId, lookupId, NO_ID } from "./ids.js";

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
