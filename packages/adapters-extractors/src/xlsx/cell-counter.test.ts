import { describe, expect, it } from "vitest";
import { CellCounter } from "./cell-counter.js";

const SHEET =
  '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"/><x:c r="C1"><v>1</v></x:c></row></sheetData><cols><col min="1"/></cols>';

describe("CellCounter", () => {
  it.each([1, 2, 3, 5, 7, 1000])("counts the cells of a worksheet cut in chunks of %d characters", (size) => {
    const counter = new CellCounter();
    for (let start = 0; start < SHEET.length; start += size) {
      counter.observe("xl/worksheets/sheet1.xml", Buffer.from(SHEET.slice(start, start + size), "latin1"));
    }
    expect(counter.finish()).toBe(3);
  });

  it("counts only worksheet parts", () => {
    const counter = new CellCounter();
    counter.observe("xl/sharedStrings.xml", Buffer.from('<c r="A1"/>'));
    counter.observe("xl/worksheets/sheet2.xml", Buffer.from('<c r="A1"/><c r="A2"/>'));
    expect(counter.finish()).toBe(2);
  });
});
