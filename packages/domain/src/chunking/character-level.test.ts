import { describe, expect, it } from "vitest";
import { mergeCharacters, splitIntoCharacterWindows } from "./character-level.js";

// Expected values: the character level ("" separator) of Dify's splitters, run on Python 3.11 (the
// overlaps above the size set after construction, which refuses them).
describe("splitIntoCharacterWindows, the fixed splitter's character level", () => {
  it.each<[string, number, number, string[]]>([
    ["abc", 0, 0, ["", "a", "b", "c"]],
    ["abcdefg", 3, 1, ["abc", "cde", "efg"]],
    ["abcdefg", 3, 3, ["abc", "abcd", "efg"]],
    ["ab\ncd\n\ne", 2, 0, ["ab", "cd", "e"]],
    ["😀😀😀😀😀", 2, 1, ["😀😀", "😀😀", "😀😀"]],
    ["abcdef", 2, 5, ["ab", "abc", "de", "ef"]],
  ])("cuts %j with size %i and overlap %i into %j", (text, chunkSize, chunkOverlap, chunks) => {
    expect(splitIntoCharacterWindows(text, { chunkSize, chunkOverlap })).toEqual(chunks);
  });
});

describe("mergeCharacters, the base splitter's character level", () => {
  it.each<[string, number, number, string[]]>([
    ["abc", 1, 0, ["a", "b", "c"]],
    ["abcdefg", 3, 1, ["abc", "cde", "efg"]],
    ["a \tb\u3000cd", 2, 0, ["a", "b", "c", "d"]],
    ["ab\ncd\n\ne", 2, 0, ["ab", "cd", "e"]],
    ["😀😀😀😀😀", 2, 1, ["😀😀", "😀😀", "😀😀", "😀😀"]],
    ["abcdef", 2, 5, ["ab", "bc", "cd", "de", "ef"]],
  ])("cuts %j with size %i and overlap %i into %j", (text, chunkSize, chunkOverlap, chunks) => {
    expect(mergeCharacters(text, { chunkSize, chunkOverlap })).toEqual(chunks);
  });
});
