import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import {
  compoundFileBytes,
  deflatedZeros,
  honestEntry,
  PNG_BYTES,
  zipBytes,
} from "../testing/zip.test-support.js";

const extractor = new FormatTextExtractor();
const read = (bytes: Uint8Array, reader = extractor) => reader.extract({ bytes, extension: "xlsx" });

async function xlsx(fill: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  fill(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe("reading an XLSX workbook", () => {
  it('gives one unit per data row: "Header":"value" pairs joined with ;', async () => {
    const bytes = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("People");
      sheet.addRows([
        ["名前", "Ville", "Note"],
        ["太郎", "Zürich", "😀"],
        ["Ann", "Paris", 30],
      ]);
    });
    expect(await read(bytes)).toEqual({
      ok: true,
      units: ['"名前":"太郎";"Ville":"Zürich";"Note":"😀"', '"名前":"Ann";"Ville":"Paris";"Note":"30"'],
    });
  });

  it("finds the header below a title row, and ignores the rows above it", async () => {
    const bytes = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("Report");
      sheet.getCell("A1").value = "Quarterly report";
      sheet.getRow(3).values = ["Item", "Count"];
      sheet.getRow(4).values = ["Pens", 12];
    });
    expect(await read(bytes)).toEqual({ ok: true, units: ['"Item":"Pens";"Count":"12"'] });
  });

  it("writes values as openpyxl shows them: cached formula results, dates, booleans, escaped quotes", async () => {
    const bytes = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("Values");
      sheet.addRow(["Total", "When", "Done", "Say"]);
      sheet.addRow([{ formula: "2*3", result: 6 }, new Date(Date.UTC(2024, 0, 5)), true, 'a "quote"']);
      sheet.getCell("B2").numFmt = "yyyy-mm-dd";
    });
    expect(await read(bytes)).toEqual({
      ok: true,
      units: ['"Total":"6";"When":"2024-01-05 00:00:00";"Done":"True";"Say":"a \\"quote\\""'],
    });
  });

  it("writes a hyperlink as [shown](target)", async () => {
    const bytes = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("Links");
      sheet.addRow(["Name", "Link"]);
      sheet.addRow(["Docs", { text: "site", hyperlink: "https://example.com/" }]);
    });
    expect(await read(bytes)).toEqual({
      ok: true,
      units: ['"Name":"Docs";"Link":"[site](https://example.com/)"'],
    });
  });

  it('skips an empty row, keeps "H":"" for an empty cell, and reads a merge only in its first cell', async () => {
    const bytes = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("Gaps");
      sheet.addRow(["A", "B", "C"]);
      sheet.addRow(["x", null, "z"]);
      sheet.addRow([]);
      sheet.addRow(["merged", null, "end"]);
      sheet.mergeCells("A4:B4");
    });
    expect(await read(bytes)).toEqual({
      ok: true,
      units: ['"A":"x";"B":"";"C":"z"', '"A":"merged";"B":"";"C":"end"'],
    });
  });

  it("reads sheet by sheet, in order, and skips a sheet without a header", async () => {
    const bytes = await xlsx((workbook) => {
      workbook.addWorksheet("First").addRows([
        ["k", "v"],
        ["one", 1],
      ]);
      workbook.addWorksheet("Empty");
      workbook.addWorksheet("Second").addRows([
        ["k", "v"],
        ["two", 2],
      ]);
    });
    expect(await read(bytes)).toEqual({ ok: true, units: ['"k":"one";"v":"1"', '"k":"two";"v":"2"'] });
  });

  it("refuses a workbook with more rows than the limit", async () => {
    const bytes = await xlsx((workbook) => {
      workbook
        .addWorksheet("Rows")
        .addRows([["n", "m"], ...Array.from({ length: 5 }, (_, index) => [index, index])]);
    });
    expect(await read(bytes, new FormatTextExtractor({ maxRows: 3 }))).toEqual({
      ok: false,
      reason: "The file has too many rows (over 3).",
    });
  });
});

describe("refusing an XLSX file that cannot be read", () => {
  it.each([
    [
      "a PNG named .xlsx",
      PNG_BYTES,
      "The XLSX workbook cannot be read: it is not a zip archive, as the format requires.",
    ],
    [
      "a password-protected workbook",
      compoundFileBytes(true),
      "The XLSX workbook is encrypted (password-protected).",
    ],
    [
      "an old .xls renamed",
      compoundFileBytes(false),
      "The XLSX workbook is an old binary .xls file, not the zip-based format its name says.",
    ],
    [
      "a zip without a workbook",
      zipBytes([honestEntry("word/document.xml", "<w:document/>")]),
      "The XLSX workbook cannot be read: it has no xl/workbook.xml, so it is not a spreadsheet.",
    ],
    [
      "a workbook part that is not XML",
      zipBytes([honestEntry("xl/workbook.xml", "not xml <<<"), honestEntry("[Content_Types].xml", "??")]),
      "The XLSX workbook cannot be read.",
    ],
  ])("refuses %s", async (_behaviour, bytes, reason) => {
    expect(await read(bytes)).toEqual({ ok: false, reason });
  });

  it("refuses a zip bomb that lies about its size before exceljs inflates it", async () => {
    const bytes = zipBytes([
      honestEntry("xl/workbook.xml", "<workbook/>"),
      { name: "xl/worksheets/sheet1.xml", deflated: deflatedZeros(1024), declaredSize: 1000, crc32: 0 },
    ]);
    expect(await read(bytes)).toEqual({
      ok: false,
      reason: "The XLSX workbook is refused: its archive declares false sizes (a decompression bomb).",
    });
  });

  it("refuses a workbook whose parts declare more than the inflated limit", async () => {
    const bytes = zipBytes([
      honestEntry("xl/workbook.xml", "<workbook/>"),
      {
        name: "xl/worksheets/sheet1.xml",
        deflated: deflatedZeros(2),
        declaredSize: 2 * 1024 * 1024,
        crc32: 0,
      },
    ]);
    expect(await read(bytes, new FormatTextExtractor({ maxUncompressedBytes: 1024 * 1024 }))).toEqual({
      ok: false,
      reason: "The XLSX workbook is refused: it inflates to over 1 MB (a decompression bomb).",
    });
  });
});

describe("bounding what exceljs holds", () => {
  it("refuses a workbook with more cells than the limit, before loading it", async () => {
    const bytes = await xlsx((workbook) => {
      workbook.addWorksheet("Cells").addRows(Array.from({ length: 10 }, () => ["a", "b", "c"]));
    });
    expect(await read(bytes, new FormatTextExtractor({ maxSpreadsheetCells: 20 }))).toEqual({
      ok: false,
      reason: "The XLSX workbook is too large to read: over 20 cells.",
    });
  });
});
