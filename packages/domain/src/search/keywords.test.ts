import { describe, expect, it } from "vitest";
import { extractKeywords } from "./keywords.js";

describe("extractKeywords", () => {
  it("takes the ten best terms by TF-IDF, rare and repeated ones first, as the words they appear as", () => {
    const frequencies = new Map([
      ["flow", 90],
      ["boundari", 40],
    ]);
    expect(
      extractKeywords("Boundary flow, boundary layers and flutter of the flow.", 100, frequencies),
    ).toEqual(["layers", "flutter", "boundary", "flow"]);
  });

  it("keeps at most ten, in a stable order, and none for a text of stop words", () => {
    const text = Array.from({ length: 15 }, (_, index) => `word${index}`).join(" ");
    const keywords = extractKeywords(text, 0, new Map());
    expect(keywords).toEqual(Array.from({ length: 10 }, (_, index) => `word${index}`));
    expect(extractKeywords(text, 0, new Map())).toEqual(keywords);
    expect(extractKeywords("the and of", 5, new Map())).toEqual([]);
  });
});
