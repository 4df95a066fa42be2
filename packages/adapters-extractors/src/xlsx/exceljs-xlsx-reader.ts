import type { Cell, Worksheet } from "exceljs";
import type { ExtractionLimits } from "../limits.js";
import type { TextBudget } from "../text-budget.js";
import { UnreadableFile } from "../unreadable-file.js";
import { requireOfficeZip } from "../zip/office-file-signature.js";
import { ZipArchive } from "../zip/zip-archive.js";
import { CellCounter } from "./cell-counter.js";
import { type PythonCell, pythonCell } from "./python-values.js";
import { findHeader, HEADER_SCAN_ROWS, rowText } from "./sheet-rows.js";

const LABEL = "The XLSX workbook";
type ExcelJs = typeof import("exceljs");
let excelJs: Promise<ExcelJs> | undefined;
const loadExcelJs = () => {
  excelJs ??= import("exceljs").then((module) => (module as { default?: ExcelJs }).default ?? module);
  return excelJs;
};

// Parts of a sheet no row text needs: not parsed, so they cost no memory and cannot fail the file.
const IGNORED_NODES = [
  ...["dataValidations", "conditionalFormatting", "extLst", "picture", "drawing", "headerFooter"],
  ...["rowBreaks", "pageSetup", "printOptions", "pageMargins", "sheetProtection", "autoFilter", "tableParts"],
];

/**
 * One unit per data row, sheet by sheet (Dify's `ExcelExtractor` for `.xlsx`; see `sheet-rows.ts`).
 * The archive is checked for decompression bombs, proved to hold no more than it declares, and its
 * cells counted, before exceljs inflates it and holds the whole workbook in memory. Images are not
 * turned into links (Dify stores them; we store none).
 */
export async function readXlsx(
  bytes: Uint8Array,
  limits: ExtractionLimits,
  budget: TextBudget,
): Promise<string[]> {
  requireOfficeZip(bytes, LABEL, ".xls");
  const archive = await ZipArchive.open(bytes, limits, LABEL);
  try {
    if (!archive.has("xl/workbook.xml")) {
      throw new UnreadableFile(
        `${LABEL} cannot be read: it has no xl/workbook.xml, so it is not a spreadsheet.`,
      );
    }
    const cells = new CellCounter();
    await archive.verifyAll((part, chunk) => cells.observe(part, chunk));
    if (cells.finish() > limits.maxSpreadsheetCells) {
      throw new UnreadableFile(
        `${LABEL} is too large to read: over ${limits.maxSpreadsheetCells.toLocaleString("en-US")} cells.`,
      );
    }
  } finally {
    archive.close();
  }
  const { Workbook, ValueType } = await loadExcelJs();
  const workbook = new Workbook();
  try {
    // exceljs hands the bytes to JSZip, which takes a Uint8Array; its types say ArrayBuffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer, { ignoreNodes: IGNORED_NODES });
  } catch {
    throw new UnreadableFile(`${LABEL} cannot be read.`);
  }
  const date1904 = workbook.properties.date1904 === true;
  const readCell = (cell: Cell | undefined): PythonCell | undefined =>
    cell === undefined || cell.type === ValueType.Merge ? undefined : pythonCell(cell.value, date1904);
  const units: string[] = [];
  for (const sheet of workbook.worksheets) {
    const firstRows = Array.from({ length: HEADER_SCAN_ROWS }, (_, index) =>
      rowTexts(sheet, index + 1, readCell),
    );
    const header = findHeader(firstRows);
    if (header === undefined) continue;
    sheet.eachRow((row, rowNumber) => {
      if (rowNumber <= header.row) return;
      const cells: (PythonCell | undefined)[] = [];
      for (const column of header.columns.keys()) cells[column] = readCell(row.findCell(column + 1));
      const text = rowText(header, cells);
      if (text === undefined) return;
      budget.countRow();
      units.push(budget.spend(text));
    });
  }
  return units;
}

function rowTexts(
  sheet: Worksheet,
  rowNumber: number,
  readCell: (cell: Cell | undefined) => PythonCell | undefined,
): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  sheet.findRow(rowNumber)?.eachCell((cell, column) => {
    texts[column - 1] = readCell(cell)?.text;
  });
  return texts;
}
