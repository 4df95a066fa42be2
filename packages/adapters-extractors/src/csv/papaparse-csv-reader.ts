import Papa from "papaparse";
import { decodeText } from "../text/decode-text.js";
import { translateNewlines } from "../text/python-text.js";
import type { TextBudget } from "../text-budget.js";
import { UnreadableFile } from "../unreadable-file.js";
import { csvRowTexts } from "./csv-rows.js";

// Our fix (#42353): Dify reads commas only, so a `;` or tab separated file is one column. Papa Parse
// guesses among these from the first rows (the most consistent field count above one); a file with
// one column, or none of them, is read with commas, as Dify.
const DELIMITERS = [",", ";", "\t"];

/** One unit per data row (Dify's `CSVExtractor`, with our fixes: see `csvRowTexts`). */
export function readCsv(bytes: Uint8Array, budget: TextBudget): string[] {
  // pandas drops a UTF-8 BOM from the first header; Python's newline translation is not applied to
  // CSV, but pandas ends rows at `\r\n`, `\r` or `\n`, and so do we, inside quoted fields too.
  const text = translateNewlines(decodeText(bytes, { keepUtf8Bom: false }));
  const parsed = Papa.parse<string[]>(text, {
    delimiter: "",
    delimitersToGuess: DELIMITERS,
    newline: "\n",
    quoteChar: '"',
    // pandas skips empty and whitespace-only lines; "greedy" also skips a row of blank fields (`,,`),
    // which pandas keeps as a row of empty values: it would be a unit without text.
    skipEmptyLines: "greedy",
    header: false,
    dynamicTyping: false,
  });
  if (parsed.errors.some((error) => error.code === "MissingQuotes")) {
    throw new UnreadableFile("The CSV file cannot be read: a quoted field is never closed.");
  }
  const records = parsed.data;
  if (records.length === 0) throw new UnreadableFile("The CSV file has no header row: it holds no text.");
  const units = [];
  for (const row of csvRowTexts(records)) {
    budget.countRow();
    units.push(budget.spend(row));
  }
  return units;
}
