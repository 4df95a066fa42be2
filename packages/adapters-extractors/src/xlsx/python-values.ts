import type { CellValue } from "exceljs";

// Dify writes each cell as Python's `str()` of the value openpyxl (`data_only=True`) gives: no number
// formats, a formula's cached result, `True`/`False`, a date as `2024-01-05 00:00:00`. These turn
// the values exceljs gives into those texts.

/** A cell as openpyxl shows it: Python's `str(value)` (`undefined` for `None`) and its link. */
export interface PythonCell {
  text: string | undefined;
  hyperlink?: string | undefined;
}

export function pythonCell(value: CellValue, date1904: boolean): PythonCell {
  if (value !== null && typeof value === "object" && "hyperlink" in value) {
    const shown = value.text as CellValue; // exceljs keeps a rich-text link's text as rich text
    return { text: pythonText(shown, date1904), hyperlink: value.hyperlink };
  }
  return { text: pythonText(value, date1904) };
}

function pythonText(value: CellValue, date1904: boolean): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number") return pythonNumberText(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value instanceof Date) return pythonDateText(value, date1904);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("error" in value) return value.error;
  if ("result" in value || "formula" in value || "sharedFormula" in value) {
    return pythonText((value as { result?: CellValue }).result, date1904); // no cached result: None
  }
  return undefined;
}

/**
 * Python's `str()` of the number openpyxl reads: an integral value as an int (Excel writes `5`, not
 * `5.0`), else a float's `repr`, which switches to `1e-05`/`1e+16` outside [1e-4, 1e16).
 */
export function pythonNumberText(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e16) return String(value);
  const [mantissa, exponent] = value.toExponential().split("e") as [string, string];
  const sign = exponent.startsWith("-") ? "-" : "+";
  return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
}

/**
 * Python's `str()` of the `datetime` openpyxl makes of a date cell (`2024-01-05 00:00:00`, with
 * `.ffffff` when there are fractions of a second), or of the `time` it makes of a value below one day.
 * exceljs gives such a value as a moment of the epoch's first day (1899-12-30, or 1904-01-01).
 */
export function pythonDateText(date: Date, date1904: boolean): string {
  const two = (part: number) => String(part).padStart(2, "0");
  const fraction =
    date.getUTCMilliseconds() === 0 ? "" : `.${String(date.getUTCMilliseconds() * 1000).padStart(6, "0")}`;
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}${fraction}`;
  const epochDay = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  if (date.getTime() >= epochDay && date.getTime() < epochDay + 86_400_000) return time;
  const day = `${String(date.getUTCFullYear()).padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  return `${day} ${time}`;
}
