import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import { pdfBytes } from "../testing/pdf.test-support.js";
import { PNG_BYTES } from "../testing/zip.test-support.js";

const extractor = new FormatTextExtractor();
const read = (bytes: Uint8Array, reader = extractor) => reader.extract({ bytes, extension: "pdf" });

describe("reading a PDF", () => {
  it("gives one unit per page, in order, lines ending with \\n (our fix: PDFium's \\r\\n)", async () => {
    const bytes = await pdfBytes({ pages: [["Page one", "second line"], ["Page two"]] });
    expect(await read(bytes)).toEqual({ ok: true, units: ["Page one\nsecond line", "Page two"] });
  });

  it("reads accented Latin text", async () => {
    const bytes = await pdfBytes({ pages: [["Crème brûlée à Zürich"]] });
    expect(await read(bytes)).toEqual({ ok: true, units: ["Crème brûlée à Zürich"] });
  });

  it("reads CJK and emoji through the font's Unicode map", async () => {
    const bytes = await pdfBytes({ pages: [[]], unicodeLines: ["你好，世界", "😀 テスト"] });
    expect(await read(bytes)).toEqual({ ok: true, units: ["你好，世界\n😀 テスト"] });
  });

  it("gives an empty unit for a page without text (no OCR)", async () => {
    const bytes = await pdfBytes({ pages: [["text"], [], ["more"]] });
    expect(await read(bytes)).toEqual({ ok: true, units: ["text", "", "more"] });
  });

  it("reads a PDF that only restricts permissions: it opens without a password", async () => {
    const bytes = await pdfBytes({ pages: [["Open to read"]], ownerPassword: "owner" });
    expect(await read(bytes)).toEqual({ ok: true, units: ["Open to read"] });
  });
});

describe("refusing a PDF that cannot be read", () => {
  it("refuses a PDF that needs a password to open", async () => {
    const bytes = await pdfBytes({ pages: [["secret"]], userPassword: "user", ownerPassword: "owner" });
    expect(await read(bytes)).toEqual({ ok: false, reason: "The PDF is encrypted." });
  });

  it.each([
    ["a PNG named .pdf", PNG_BYTES, "The file is not a PDF."],
    ["text named .pdf", Buffer.from("just some text"), "The file is not a PDF."],
    [
      "a header and then garbage",
      Buffer.from(`%PDF-1.7\n${"garbage ".repeat(100)}`),
      "The PDF cannot be read.",
    ],
  ])("refuses %s", async (_behaviour, bytes, reason) => {
    expect(await read(bytes)).toEqual({ ok: false, reason });
  });

  it("refuses a PDF cut in half", async () => {
    const bytes = await pdfBytes({ pages: [["one"], ["two"]] });
    expect(await read(bytes.subarray(0, bytes.length / 2))).toEqual({
      ok: false,
      reason: "The PDF cannot be read.",
    });
  });

  it("refuses a PDF with more pages than the limit", async () => {
    const bytes = await pdfBytes({ pages: [["1"], ["2"], ["3"]] });
    expect(await read(bytes, new FormatTextExtractor({ maxPages: 2 }))).toEqual({
      ok: false,
      reason: "The PDF has too many pages (over 2).",
    });
  });

  it("leaves the caller's bytes intact", async () => {
    const bytes = await pdfBytes({ pages: [["keep"]] });
    const copy = bytes.slice();
    await read(bytes);
    expect(bytes).toEqual(copy);
  });
});
