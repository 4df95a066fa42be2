import { pythonStrip } from "../text/python-text.js";
import type { PythonCell } from "./python-values.js";

// Dify's `ExcelExtractor` for `.xlsx` (#29551): the header row is found among the first rows, and each
// later row becomes `"Header":"value"` pairs over the header's columns, joined with `";"`.

/** How many of a sheet's first rows may hold its header. */
export const HEADER_SCAN_ROWS = 10;

/** The header: its row (1-based) and its named columns (0-based index → name, `"` escaped), in order. */
export interface SheetHeader {
  row: number;
  columns: ReadonlyMap<number, string>;
}

/**
 * Of the first 10 rows (`rows[i]` is row i + 1, its cells' Python texts), the first with at least
 * two non-empty cells, else the one with the most (the earliest on a tie); `undefined` when they are
 * all empty (Dify then skips the sheet).
 */
export function findHeader(rows: readonly (readonly (string | undefined)[])[]): SheetHeader | undefined {
  const candidates: SheetHeader[] = [];
  rows.slice(0, HEADER_SCAN_ROWS).forEach((cells, index) => {
    const columns = new Map<number, string>();
    cells.forEach((text, column) => {
      const name = text === undefined ? "" : pythonStrip(text);
      if (name !== "") columns.set(column, escapeQuotes(name));
    });
    if (columns.size > 0) candidates.push({ row: index + 1, columns });
  });
  return (
    candidates.find((candidate) => candidate.columns.size >= 2) ??
    candidates.reduce<SheetHeader | undefined>(
      (best, candidate) =>
        best === undefined || candidate.columns.size > best.columns.size ? candidate : best,
      undefined,
    )
  );
}

/**
 * A data row's unit: per header column, `"Header":"value"` (a link as `[shown](target)`, the target
 * shown when the cell is empty; value stripped, `"` → `\"`), joined with `";"`. `undefined` when no
 * header column has a value (Dify skips the row). `cells[i]` is column i (0-based).
 */
export function rowText(header: SheetHeader, cells: readonly (PythonCell | undefined)[]): string | undefined {
  let hasContent = false;
  const pairs: string[] = [];
  for (const [column, name] of header.columns) {
    const cell = cells[column];
    let value = cell?.text ?? "";
    if (cell?.hyperlink) {
      value = `[${pythonStrip(value) === "" ? cell.hyperlink : value}](${cell.hyperlink})`;
    }
    value = pythonStrip(value);
    if (value !== "") hasContent = true;
    pairs.push(`"${name}":"${escapeQuotes(value)}"`);
  }
  return hasContent ? pairs.join(";") : undefined;
}

function escapeQuotes(text: string): string {
  return text.replaceAll('"', '\\"');
}
