import { describe, expect, it } from "vitest";
import { findHeader, rowText, type SheetHeader } from "./sheet-rows.js";

const header = (row: number, names: Record<number, string>): SheetHeader => ({
  row,
  columns: new Map(Object.entries(names).map(([column, name]) => [Number(column), name])),
});

describe("findHeader", () => {
  it.each([
    [
      "the first row, when it has two named cells",
      [
        ["Name", "Age"],
        ["Ann", 30],
      ],
      header(1, { 0: "Name", 1: "Age" }),
    ],
    [
      "the first row with at least two non-empty cells, past a title row",
      [["Report"], [], ["Name", undefined, "Age"], ["Ann", "x", "30"]],
      header(3, { 0: "Name", 2: "Age" }),
    ],
    [
      "else the row with the most, the earliest on a tie",
      [["Only"], [undefined, "Second"]],
      header(1, { 0: "Only" }),
    ],
    ["names are stripped and their quotes escaped", [[' "Q" ', "b"]], header(1, { 0: '\\"Q\\"', 1: "b" })],
    [
      "blank cells do not count",
      [
        ["  ", "x"],
        ["a", "b"],
      ],
      header(2, { 0: "a", 1: "b" }),
    ],
    ["a sheet with nothing in its first 10 rows has none", [[], [undefined]], undefined],
    [
      "rows past the tenth are not looked at",
      [...Array.from({ length: 10 }, () => []), ["late", "header"]],
      undefined,
    ],
  ])("%s", (_behaviour, rows, expected) => {
    const texts = rows.map((cells) => cells.map((cell) => (cell === undefined ? undefined : String(cell))));
    expect(findHeader(texts)).toEqual(expected);
  });
});

describe("rowText", () => {
  const nameAndLink = header(1, { 0: "Name", 2: "Link" });
  it.each([
    [
      '"Header":"value" pairs over the header columns, joined with ;',
      [{ text: "Ann" }, { text: "skip" }, { text: "x" }],
      '"Name":"Ann";"Link":"x"',
    ],
    ["an empty cell still emits its pair", [{ text: "Ann" }], '"Name":"Ann";"Link":""'],
    ["a row with no value in the header columns gives none", [undefined, { text: "only here" }], undefined],
    ['values are stripped and " is escaped', [{ text: '  say "hi" ' }], '"Name":"say \\"hi\\"";"Link":""'],
    [
      "a link is [shown](target)",
      [{ text: "Ann" }, undefined, { text: "Docs", hyperlink: "https://example.com" }],
      '"Name":"Ann";"Link":"[Docs](https://example.com)"',
    ],
    [
      "a link in an empty cell shows its target",
      [{ text: "Ann" }, undefined, { text: undefined, hyperlink: "https://x.y" }],
      '"Name":"Ann";"Link":"[https://x.y](https://x.y)"',
    ],
  ])("%s", (_behaviour, cells, expected) => {
    expect(rowText(nameAndLink, cells)).toEqual(expected);
  });
});
