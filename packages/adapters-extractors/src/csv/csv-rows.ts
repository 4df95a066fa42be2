import { pythonStrip } from "../text/python-text.js";

/**
 * The column names pandas gives a header row: an empty name is `Unnamed: N` (N the column's index),
 * a repeated one gets `.1`, `.2` (pandas' `dedup_names`). Names are not stripped here: Dify strips
 * them when it writes a row.
 */
export function pandasColumnNames(header: readonly string[]): string[] {
  const counts = new Map<string, number>();
  return header.map((raw, index) => {
    let name = raw === "" ? `Unnamed: ${index}` : raw;
    let count = counts.get(name) ?? 0;
    while (count > 0) {
      counts.set(name, count + 1);
      name = `${name}.${count}`;
      count = counts.get(name) ?? 0;
    }
    counts.set(name, count + 1);
    return name;
  });
}

/**
 * One unit per data row, as Dify's `CSVExtractor`: for each column `header.strip() + ": " +
 * value.strip()`, joined with `";"`. Our fixes: a value is the text as written (pandas' typing made
 * `007` → `7` and an empty cell → `nan`); a short row's missing cells are empty; a row with more
 * fields than the header is kept (pandas drops it, #17530), its extra fields under `Unnamed: N`.
 */
export function csvRowTexts(records: readonly (readonly string[])[]): string[] {
  const [header, ...rows] = records;
  if (header === undefined) return [];
  const names = pandasColumnNames(header);
  return rows.map((row) => {
    const width = Math.max(names.length, row.length);
    const fields: string[] = [];
    for (let index = 0; index < width; index += 1) {
      const name = names[index] ?? `Unnamed: ${index}`;
      fields.push(`${pythonStrip(name)}: ${pythonStrip(row[index] ?? "")}`);
    }
    return fields.join(";");
  });
}
