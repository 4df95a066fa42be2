import { hasFloor, OPERATION_NAMES } from "./operations.js";
import { type BenchResults, sizeLabel } from "./report.js";

/** req/s against data size, one line per operation, ours solid and the floor dashed. */
export function chart(results: BenchResults): string {
  const width = 860;
  const height = 360;
  const left = 70;
  const bottom = 40;
  const sizes = results.sizes;
  const maximum = Math.max(
    ...sizes.flatMap((size) =>
      OPERATION_NAMES.flatMap((name) => [
        size.ours[name].req_per_s,
        hasFloor(name) ? size.floor[name].req_per_s : 0,
      ]),
    ),
  );
  const x = (index: number) =>
    left + (sizes.length === 1 ? 0 : (index * (width - left - 230)) / (sizes.length - 1));
  const y = (value: number) => height - bottom - (value / maximum) * (height - bottom - 20);
  const colours = [
    "#1c64f2",
    "#e02424",
    "#057a55",
    "#9061f9",
    "#ff8a4c",
    "#0694a2",
    "#c27803",
    "#d61f69",
    "#5850ec",
    "#31c48d",
    "#6b7280",
    "#111827",
  ];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    "<title>service-api req/s against data size, with the floor dashed</title>",
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<line x1="${left}" y1="${height - bottom}" x2="${width - 210}" y2="${height - bottom}" stroke="#444"/>`,
    `<line x1="${left}" y1="20" x2="${left}" y2="${height - bottom}" stroke="#444"/>`,
    `<text x="10" y="16">req/s (solid: service-api, dashed: floor)</text>`,
  ];
  for (const [index, size] of sizes.entries()) {
    parts.push(
      `<text x="${x(index) - 10}" y="${height - bottom + 18}">${sizeLabel(size.documents)} docs</text>`,
    );
  }
  for (let tick = 0; tick <= 4; tick++) {
    const value = Math.round((maximum * tick) / 4);
    parts.push(`<text x="8" y="${y(value) + 4}">${value}</text>`);
  }
  for (const [index, name] of OPERATION_NAMES.entries()) {
    const colour = colours[index]!;
    const line = (values: number[], dash = "") =>
      parts.push(
        `<polyline points="${values.map((value, i) => `${x(i)},${y(value)}`).join(" ")}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`,
      );
    line(sizes.map((size) => size.ours[name].req_per_s));
    if (hasFloor(name))
      line(
        sizes.map((size) => size.floor[name].req_per_s),
        ' stroke-dasharray="5,4"',
      );
    parts.push(`<text x="${width - 200}" y="${40 + index * 18}" fill="${colour}">${name}</text>`);
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
