import { describe, expect, it } from "vitest";
import { csvRowTexts, pandasColumnNames } from "./csv-rows.js";

describe("csvRowTexts", () => {
  it.each([
    [
      "each data row is header: value pairs joined with ;",
      [
        ["name", "age"],
        ["Ann", "30"],
      ],
      ["name: Ann;age: 30"],
    ],
    [
      "headers and values are stripped",
      [
        [" name ", "age"],
        ["  Ann ", " 30"],
      ],
      ["name: Ann;age: 30"],
    ],
    [
      "our fix: an empty cell is empty, not nan",
      [
        ["a", "b"],
        ["", "x"],
      ],
      ["a: ;b: x"],
    ],
    [
      "our fix: values are the text as written, not retyped by pandas",
      [
        ["id", "price", "missing", "flag"],
        ["007", "1.50", "NA", "true"],
      ],
      ["id: 007;price: 1.50;missing: NA;flag: true"],
    ],
    ["a short row's missing cells are empty", [["a", "b", "c"], ["1"]], ["a: 1;b: ;c: "]],
    [
      "our fix: a row with too many fields is kept, extra fields under Unnamed: N",
      [
        ["a", "b"],
        ["1", "2", "3"],
      ],
      ["a: 1;b: 2;Unnamed: 2: 3"],
    ],
    ["a header row alone gives no unit", [["a", "b"]], []],
    [
      "non-ASCII text passes through",
      [
        ["名前", "café"],
        ["太郎 😀", "crème"],
      ],
      ["名前: 太郎 😀;café: crème"],
    ],
  ])("%s", (_behaviour, records, units) => {
    expect(csvRowTexts(records)).toEqual(units);
  });
});

describe("pandasColumnNames", () => {
  it.each([
    [
      ["a", "b"],
      ["a", "b"],
    ],
    [
      ["a", "a", "a"],
      ["a", "a.1", "a.2"],
    ],
    [
      ["a", "a", "a.1"],
      ["a", "a.1", "a.1.1"],
    ],
    [
      ["x", "", "y"],
      ["x", "Unnamed: 1", "y"],
    ],
  ])("names %j as pandas does: %j", (header, names) => {
    expect(pandasColumnNames(header)).toEqual(names);
  });
});
