import { pythonStrip } from "../text/python-text.js";
import { type HyperlinkTargets, paragraphText } from "./docx-paragraph.js";
import { childNamed, childrenNamed, type XmlElement } from "./office-xml.js";

/**
 * A table as Dify's `WordExtractor._table_to_markdown` writes it: the first row is the header, then
 * `| --- |` with one `---` per grid column of the widest row. A cell spanning columns has its text in
 * the first and `""` in the rest; a vertically merged cell repeats the text of the cell it continues.
 * `|` in a cell is not escaped, as in Dify. A table without rows gives `undefined`.
 */
export function tableMarkdown(table: XmlElement, links: HyperlinkTargets): string | undefined {
  const rows: string[][] = [];
  let above: string[] = [];
  for (const row of childrenNamed(table, "w:tr")) {
    const cells: string[] = [];
    let column = 0;
    for (const cell of childrenNamed(row, "w:tc")) {
      const properties = childNamed(cell, "w:tcPr");
      const span = Math.max(1, Number.parseInt(gridSpanOf(properties) ?? "1", 10) || 1);
      cells[column] = continuesMerge(properties) ? (above[column] ?? "") : cellText(cell, links);
      for (let offset = 1; offset < span; offset += 1) cells[column + offset] = "";
      column += span;
    }
    rows.push(Array.from(cells, (text) => text ?? ""));
    above = rows.at(-1)!;
  }
  if (rows.length === 0) return undefined;
  const width = Math.max(...rows.map((cells) => cells.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cells[index] ?? "").join(" | ")} |`;
  const [header, ...body] = rows;
  return [line(header!), line(Array(width).fill("---")), ...body.map(line)].join("\n");
}

/** A cell's text: its non-empty paragraphs, each once, joined with a space (Dify's `_parse_cell`). */
function cellText(cell: XmlElement, links: HyperlinkTargets): string {
  const paragraphs = childrenNamed(cell, "w:p")
    .map((paragraph) => paragraphText(paragraph, links))
    .filter((text) => text !== "");
  return pythonStrip([...new Set(paragraphs)].join(" "));
}

function gridSpanOf(properties: XmlElement | undefined): string | undefined {
  const gridSpan = properties && childNamed(properties, "w:gridSpan");
  return gridSpan?.attributes["w:val"];
}

function continuesMerge(properties: XmlElement | undefined): boolean {
  const merge = properties && childNamed(properties, "w:vMerge");
  return merge !== undefined && (merge.attributes["w:val"] ?? "continue") === "continue";
}
