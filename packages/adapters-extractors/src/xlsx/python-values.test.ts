import { describe, expect, it } from "vitest";
import { pythonCell, pythonDateText, pythonNumberText } from "./python-values.js";

describe("pythonNumberText", () => {
  it.each([
    [5, "5"],
    [-12, "-12"],
    [1.5, "1.5"],
    [0.25, "0.25"],
    [0.1 + 0.2, "0.30000000000000004"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e16, "1e+16"],
    [1.2345678901234567e19, "1.2345678901234567e+19"],
    [123456789012345, "123456789012345"],
  ])("writes %d as Python does: %s", (value, text) => {
    expect(pythonNumberText(value)).toBe(text);
  });
});

describe("pythonDateText", () => {
  it.each([
    ["a date without time", new Date(Date.UTC(2024, 0, 5)), false, "2024-01-05 00:00:00"],
    ["a date with time", new Date(Date.UTC(2024, 11, 31, 23, 5, 9)), false, "2024-12-31 23:05:09"],
    [
      "fractions of a second as microseconds",
      new Date(Date.UTC(2024, 0, 5, 1, 2, 3, 450)),
      false,
      "2024-01-05 01:02:03.450000",
    ],
    ["a time of the 1900 epoch's first day", new Date(Date.UTC(1899, 11, 30, 13, 45)), false, "13:45:00"],
    ["a time of the 1904 epoch's first day", new Date(Date.UTC(1904, 0, 1, 8, 0)), true, "08:00:00"],
  ])("writes %s", (_behaviour, date, date1904, text) => {
    expect(pythonDateText(date, date1904)).toBe(text);
  });
});

describe("pythonCell", () => {
  it.each([
    ["empty", null, { text: undefined }],
    ["a string", "text", { text: "text" }],
    ["a boolean", true, { text: "True" }],
    ["an error", { error: "#DIV/0!" as const }, { text: "#DIV/0!" }],
    ["rich text", { richText: [{ text: "bo" }, { text: "ld" }] }, { text: "bold" }],
    ["a formula's cached result", { formula: "A1*2", result: 4 }, { text: "4" }],
    ["a formula with no cached result", { formula: "A1*2" }, { text: undefined }],
    ["a hyperlink", { text: "Docs", hyperlink: "https://x.y" }, { text: "Docs", hyperlink: "https://x.y" }],
  ])("reads %s as openpyxl shows it", (_behaviour, value, cell) => {
    expect(pythonCell(value, false)).toEqual(cell);
  });
});
