import { describe, expect, it } from "vitest";
import { isPythonBlank, pythonLength, pythonStrip } from "./python-text.js";

// Expected values: Python 3.11's `len` and `str.strip()` on the same strings.
describe("pythonLength counts code points, as Python's len", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["😀a", 2],
    ["e\u0301", 2],
    ["𝒳𝒴 ", 3],
    ["😀".repeat(500), 500],
    ["\ud800x", 2],
  ])("%j is %i long", (text, length) => {
    expect(pythonLength(text)).toBe(length);
  });
});

describe("pythonStrip strips what Python's str.strip() strips", () => {
  it.each([
    ["keeps a BOM, which trim() would strip", "\ufeff x \t", "\ufeff x"],
    ["strips U+001C and U+0085, which trim() keeps", "\u001cx\u0085", "x"],
    ["keeps zero-width spaces", "\u200bx\u200b", "\u200bx\u200b"],
    ["strips wide spaces and line separators", "\u3000\u2028x\u2029\u00a0", "x"],
    ["leaves nothing of whitespace only", " \n ", ""],
  ])("%s", (_why, text, stripped) => {
    expect(pythonStrip(text)).toBe(stripped);
    expect(isPythonBlank(text)).toBe(stripped === "");
  });
});
