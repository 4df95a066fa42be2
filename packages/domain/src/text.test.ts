import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";
import { isStorableText, shownInMessage } from "./text.js";

describe("isStorableText", () => {
  it.each(["", "plain", "émoji 🎉", "tab\tand\nnewline", "\uFFFD"])("accepts %j", (text) => {
    expect(isStorableText(text)).toBe(true);
  });

  it.each(["a\u0000b", "\u0000", "lone \uD800 high", "lone \uDC00 low", "reversed \uDC00\uD800"])(
    "refuses %j",
    (text) => {
      expect(isStorableText(text)).toBe(false);
    },
  );
});

describe("nestsDeeperThan", () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level++) value = level % 2 ? { a: value } : [value];
    return value;
  };

  it("counts arrays and objects, not scalars", () => {
    expect(nestsDeeperThan("text", 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: null }] }, 2)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: null }] }, 3)).toBe(false);
  });

  it("accepts the limit and refuses one more", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it("walks a value far too deep for recursion without overflowing", () => {
    expect(nestsDeeperThan(JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`), MAX_JSON_DEPTH)).toBe(
      true,
    );
  });
});

describe("shownInMessage", () => {
  it("shows text as it is and other values as String gives them", () => {
    expect(shownInMessage("Enable")).toBe("Enable");
    expect(shownInMessage(3)).toBe("3");
    expect(shownInMessage(null)).toBe("null");
    expect(shownInMessage(Symbol("all"))).toBe("Symbol(all)");
  });

  it("shows the type of a value String cannot show, instead of throwing", () => {
    expect(shownInMessage(Object.create(null))).toBe("(object)");
    const throwing = {
      toString: () => {
        throw new Error("no text");
      },
    };
    expect(shownInMessage(throwing)).toBe("(object)");
  });
});
