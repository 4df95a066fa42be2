import { describe, expect, it } from "vitest";
import { decodeSeparator } from "./separator.js";

// Expected values: Dify's `separator.replace("\\n", "\n")` then `codecs.decode(…, "unicode_escape")`,
// run on Python 3.11.
describe("decodeSeparator decodes a custom separator as Dify does", () => {
  it.each([
    ["a line break as sent stays one", "\n", "\n"],
    ["backslash-n becomes a line break (_get_splitter's replace)", "\\n", "\n"],
    ["two line breaks stay two", "\n\n", "\n\n"],
    ["two backslash-n become two line breaks", "\\n\\n", "\n\n"],
    [
      "an escaped backslash then n ends up empty: the replace leaves a backslash before a line break, which the decode drops",
      "\\\\n",
      "",
    ],
    ["backslash-t becomes a tab", "\\t", "\t"],
    ["an escaped backslash then t stays backslash-t", "\\\\t", "\\t"],
    ["backslash-r backslash-n becomes CRLF", "\\r\\n", "\r\n"],
    ["\\u3002 becomes 。", "\\u3002", "。"],
    ["\\x41 and octal \\101 become A", "\\x41\\101", "AA"],
    ["\\U0001F600 becomes one emoji", "\\U0001F600", "😀"],
    ["*** stays as it is", "***", "***"],
    ["an unknown escape keeps its backslash", "\\q", "\\q"],
    ["escaped quotes lose their backslash", "\\'\\\"", "'\""],
    ["a backslash before a line break drops both", "a\\\nb", "ab"],
  ])("%s", (_why, separator, expected) => {
    expect(decodeSeparator(separator)).toBe(expected);
  });
});

// Our one fix (knowledge-content §4): Dify reads the separator's UTF-8 bytes as Latin-1 (Dify #33644).
describe("decodeSeparator keeps non-ASCII characters, which Dify mangles", () => {
  it.each([
    ["。", "。", "ã\u0080\u0082"],
    ["，", "，", "ï¼\u008C"],
    ["\u200B", "\u200B", "â\u0080\u008B"],
    ["、\\n", "、\n", "ã\u0080\u0081\n"],
  ])("keeps %j as %j (Dify makes it %j)", (separator, expected, mangled) => {
    expect(decodeSeparator(separator)).toBe(expected);
    expect(decodeSeparator(separator)).not.toBe(mangled);
  });
});

// Python refuses these (the document fails to index); the caller never gets here with them, and the
// chunker must not throw, so they are kept as written.
describe("decodeSeparator keeps a malformed escape as written", () => {
  it.each([
    ["a trailing backslash", "ab\\", "ab\\"],
    ["a short \\x", "\\x4", "\\x4"],
    ["a short \\u", "\\u30", "\\u30"],
    ["\\U past U+10FFFF", "\\U00110000", "\\U00110000"],
    [
      "a named character (Python would decode it)",
      "\\N{IDEOGRAPHIC FULL STOP}",
      "\\N{IDEOGRAPHIC FULL STOP}",
    ],
  ])("%s", (_why, separator, expected) => {
    expect(decodeSeparator(separator)).toBe(expected);
  });
});
