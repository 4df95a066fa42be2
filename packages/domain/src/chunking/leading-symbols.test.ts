import { describe, expect, it } from "vitest";
import { removeLeadingSymbols } from "./leading-symbols.js";

// Expected values: Dify's remove_leading_symbols (the variant with the markdown-link guard that
// leaves [ ] 【 】 alone), run on Python 3.11. The chunker strips afterwards: "# H" ends up "H".
describe("removeLeadingSymbols", () => {
  it.each([
    ["# H", " H"],
    ["## Heading", " Heading"],
    ["“quote” x", "quote” x"],
    ["「c」", "c」"],
    ["。句", "句"],
    ["_u_", "u_"],
    ["...Hello, World!", "Hello, World!"],
    ['"quoted"', 'quoted"'],
    ["〔x〕", "x〕"],
    ["\u3000全角", "全角"],
    ["* item", " item"],
    ["@user: hi", "user: hi"],
    ["~/home", "home"],
  ])("turns %j into %j", (text, expected) => {
    expect(removeLeadingSymbols(text)).toBe(expected);
  });

  it.each([
    "- dash",
    "1.",
    "…",
    "【注】",
    "（括号）",
    "!",
    "!@#Test",
    "{",
    "|",
    "[not a link]",
    "[a link](https://example.com) rest",
    "[](https://example.com)",
    "   ",
    "",
    "\\path",
  ])("keeps %j", (text) => {
    expect(removeLeadingSymbols(text)).toBe(text);
  });
});
