import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "./json-depth.js";
import { isJsonValue } from "./json-value.js";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

describe("isJsonValue", () => {
  it.each([
    null,
    true,
    0,
    -1.5,
    Number.POSITIVE_INFINITY,
    "text",
    [],
    [1, "a", null, [false]],
    { a: { b: [1] } },
    Object.create(null),
  ])("takes %j, as parsing JSON could give it", (value) => {
    expect(isJsonValue(value)).toBe(true);
  });

  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  it.each([
    ["undefined", undefined],
    ["undefined inside", { a: undefined }],
    ["a hole", new Array(3)],
    ["NaN", Number.NaN],
    ["a bigint", 1n],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["a cycle", cycle],
  ])("refuses %s", (_label, value) => {
    expect(isJsonValue(value)).toBe(false);
  });

  it("refuses nesting deeper than the limit, without recursing", () => {
    expect(isJsonValue(nested(MAX_JSON_DEPTH))).toBe(true);
    expect(isJsonValue(nested(MAX_JSON_DEPTH + 1))).toBe(false);
    expect(isJsonValue(nested(200_000))).toBe(false);
  });
});
