import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import { pdfBytes } from "../testing/pdf.test-support.js";
import { deflatedZeros } from "../testing/zip.test-support.js";
import { flateLayers, inflatedStreamBytes } from "./pdf-stream-check.js";

/** A one-page PDF whose content stream is `content`, already encoded with `filter`. */
function pdfWithContent(content: Uint8Array, filter: string): Uint8Array {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  const size = () => parts.reduce((total, part) => total + part.length, 0);
  const add = (part: string | Uint8Array) =>
    parts.push(typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part));
  add("%PDF-1.4\n");
  offsets.push(size());
  add("1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n");
  offsets.push(size());
  add("2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n");
  offsets.push(size());
  add("3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n");
  offsets.push(size());
  add(`4 0 obj << /Length ${content.length} /Filter ${filter} >> stream\n`);
  add(content);
  add("\nendstream endobj\n");
  const xref = size();
  const rows = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  add(
    `xref\n0 5\n0000000000 65535 f \n${rows}trailer << /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return Buffer.concat(parts);
}

/** Raw deflate blocks wrapped as a zlib stream, as PDF's FlateDecode has them (checksum not checked). */
const zlibWrapped = (deflated: Uint8Array) =>
  Buffer.concat([Buffer.from([0x78, 0x9c]), deflated, Buffer.alloc(4)]);
const MEBIBYTE = 1024 * 1024;

describe("checking a PDF's streams before PDF.js inflates them", () => {
  it("refuses a PDF whose content stream inflates to 1 GB, keeping memory bounded", async () => {
    const bytes = pdfWithContent(zlibWrapped(deflatedZeros(1024)), "/FlateDecode");
    const before = process.memoryUsage().arrayBuffers;
    expect(await new FormatTextExtractor().extract({ bytes, extension: "pdf" })).toEqual({
      ok: false,
      reason: "The PDF is refused: its streams inflate to over 100 MB (a decompression bomb).",
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * MEBIBYTE);
  });

  it("counts Flate chained on Flate through every layer", async () => {
    const inner = zlib.deflateSync(zlib.deflateSync(Buffer.alloc(3 * MEBIBYTE)));
    const bytes = pdfWithContent(inner, "[/FlateDecode /Fl]");
    expect(await inflatedStreamBytes(bytes, 10 * MEBIBYTE)).toBe(3 * MEBIBYTE);
  });

  it("counts the streams of an ordinary PDF, which reads as usual", async () => {
    const bytes = await pdfBytes({ pages: [["Hello"]] });
    expect(await inflatedStreamBytes(bytes, MEBIBYTE)).toBeGreaterThan(0);
    expect(await new FormatTextExtractor().extract({ bytes, extension: "pdf" })).toEqual({
      ok: true,
      units: ["Hello"],
    });
  });

  it.each([
    ["<< /Length 10 /Filter /FlateDecode >>", 1],
    ["<< /Filter [/FlateDecode /FlateDecode] >>", 2],
    ["<< /Type /XObject /Subtype /Image /Filter /FlateDecode >>", 0],
    ["<< /Filter [/ASCII85Decode /FlateDecode] >>", 0],
    ["<< /Length 10 >>", 0],
  ])("reads the dictionary %s as %d Flate layers to count", (dictionary, layers) => {
    expect(flateLayers(dictionary)).toBe(layers);
  });
});
