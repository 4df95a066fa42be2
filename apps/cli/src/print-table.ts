import { type CommandIo, line } from "./io.js";

/** Rows under a header, each column as wide as its widest cell, two spaces apart. */
export function printTable(io: CommandIo, header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((cells) => cells[column]!.length)),
  );
  for (const cells of [header, ...rows]) {
    line(
      io.stdout,
      cells
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    );
  }
}
