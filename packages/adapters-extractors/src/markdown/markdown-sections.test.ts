import { describe, expect, it } from "vitest";
import { headerText, markdownSections } from "./markdown-sections.js";

describe("markdownSections", () => {
  it.each([
    ["text without a header is one section, its body stripped", "  just text\nmore  \n", ["just text\nmore"]],
    ["a file that starts with a header has an empty first section", "# Title\nbody", ["", "\n\nTitle\nbody"]],
    [
      "each header opens a section: blank line, header, newline, body",
      "intro\n# One\na\n## Two\nb\n",
      ["intro", "\n\nOne\na", "\n\nTwo\nb"],
    ],
    ["a header with an empty body ends in a newline", "# Only\n", ["", "\n\nOnly\n"]],
    ["a # without whitespace after it is no header", "#hashtag\ntext", ["#hashtag\ntext"]],
    ["a tab after the #s makes a header", "#\tTabbed\nx", ["", "\n\nTabbed\nx"]],
    ["setext headers are not recognised", "Title\n=====\nx", ["Title\n=====\nx"]],
    [
      "inside a ``` fence no line is a header",
      "```\n# not a header\n```\nafter",
      ["```\n# not a header\n```\nafter"],
    ],
    ["~~~ fences are not recognised, as in Dify", "~~~\n# header\n~~~", ["~~~", "\n\nheader\n~~~"]],
    ["tags outside code are deleted, as in Dify", "a <b>bold</b> and <https://x.y> c", ["a bold and  c"]],
    [
      "our fix: <…> inside a code fence is kept (#41986)",
      "```java\nList<String> names = new ArrayList<>();\n```",
      ["```java\nList<String> names = new ArrayList<>();\n```"],
    ],
    [
      "our fix: <…> inside inline code is kept",
      "Use `Map<K, V>` not <i>this</i>",
      ["Use `Map<K, V>` not this"],
    ],
    ["our fix: a # inside a header's words is kept", "## C# notes\nLINQ", ["", "\n\nC# notes\nLINQ"]],
    [
      "non-ASCII text passes through: CJK, accents, emoji",
      "# 标题 café\n内容 😀 naïve",
      ["", "\n\n标题 café\n内容 😀 naïve"],
    ],
    [
      "a BOM before the first # keeps that line out of the headers, as in Dify",
      "\uFEFF# Title\nx",
      ["\uFEFF# Title\nx"],
    ],
  ])("%s", (_behaviour, text, sections) => {
    expect(markdownSections(text)).toEqual(sections);
  });
});

describe("headerText", () => {
  it.each([
    ["# Title", "Title"],
    ["### Deep   ", "Deep"],
    ["## Title ##", "Title"],
    ["# Issue #42", "Issue #42"],
    ["# C#", "C#"],
    ["#  ", ""],
    ["# <b>kept</b>", "<b>kept</b>"],
  ])("reads %j as %j", (line, text) => {
    expect(headerText(line)).toBe(text);
  });
});
