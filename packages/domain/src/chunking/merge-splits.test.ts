import { describe, expect, it } from "vitest";
import { mergeSplits } from "./merge-splits.js";

// Expected values: Dify's TextSplitter._merge_splits (text_splitter.py @ 02251d52), run on Python
// 3.11 with `len` as the length function.
describe("mergeSplits", () => {
  it.each<[string, string[], string, number, number, string[]]>([
    ["packs pieces up to the size", ["aaa ", "bbb ", "ccc ", "ddd"], "", 8, 0, ["aaa bbb", "ccc ddd"]],
    [
      "carries whole pieces as overlap",
      ["aaa ", "bbb ", "ccc ", "ddd"],
      "",
      8,
      4,
      ["aaa bbb", "bbb ccc", "ccc ddd"],
    ],
    [
      "counts a separator between pieces",
      ["aaa", "bbb", "ccc", "ddd"],
      " ",
      7,
      3,
      ["aaa bbb", "bbb ccc", "ccc ddd"],
    ],
    [
      "drops what does not fit beside the next piece, even with an overlap as large as the size",
      ["one ", "two ", "three ", "four ", "five"],
      "",
      10,
      10,
      ["one two", "two three", "four five"],
    ],
    ["strips chunks and drops blank ones", ["  ", "x", "  "], "", 2, 0, ["x"]],
    ["counts code points", ["😀😀", "😀😀", "😀"], "", 4, 2, ["😀😀😀😀", "😀😀😀"]],
    ["makes nothing of no pieces", [], "", 5, 0, []],
    [
      "lets a piece longer than the size through whole",
      ["toolongpiece", "a"],
      "",
      5,
      0,
      ["toolongpiece", "a"],
    ],
  ])("%s", (_why, pieces, separator, chunkSize, chunkOverlap, chunks) => {
    expect(mergeSplits(pieces, separator, { chunkSize, chunkOverlap })).toEqual(chunks);
  });
});
