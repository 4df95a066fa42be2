import { describe, expect, it } from "vitest";
import { DIFY_SEPARATORS, pickSeparator, piecesKeepingSeparator } from "./recursive-splitter.js";

// Expected values: the separator loop of Dify's `_split_text` and `_split_text_with_regex`, run on
// Python 3.11. The regex test picks ". " for any text with a space after something else than a
// line break; the split then looks for ". " literally. (A probe of 400,000 random texts found no
// chunk this changes: without a literal ". " the text stays one piece and goes on to " ".)
describe("pickSeparator tests separators as Python regexes", () => {
  it.each([
    ["a b", ". ", [" ", ""]],
    ["end. Next", ". ", [" ", ""]],
    ["x\r y", ". ", [" ", ""]],
    ["\u2028 x", ". ", [" ", ""]],
    ["a\n b", " ", [""]],
    ["句。 a b", "。", [". ", " ", ""]],
    ["p\n\nq. r", "\n\n", ["。", ". ", " ", ""]],
    ["nospace", "", []],
    ["", "", []],
  ])("picks %j's separator %j", (text, separator, remaining) => {
    expect(pickSeparator(text, DIFY_SEPARATORS)).toEqual({ separator, remaining });
  });
});

describe("piecesKeepingSeparator", () => {
  it.each([
    ["a. b. c", ". ", ["a. ", "b. ", "c"]],
    ["one\n\n\n\ntwo", "\n\n", ["one\n\n", "\n\n", "two"]],
    ["x \n y", " ", ["x ", "\n ", "y"]],
    ["\n\n\n", "\n\n", ["\n\n"]],
  ])("splits %j on %j, keeping it at the end of each piece", (text, separator, pieces) => {
    expect([...piecesKeepingSeparator(text, separator)]).toEqual(pieces);
  });
});
