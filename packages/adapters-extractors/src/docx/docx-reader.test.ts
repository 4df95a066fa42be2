import {
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  InternalHyperlink,
  Packer,
  Paragraph,
  Tab,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from "docx";
import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import {
  compoundFileBytes,
  deflatedZeros,
  honestEntry,
  PNG_BYTES,
  zipBytes,
} from "../testing/zip.test-support.js";

type Block = Paragraph | Table;
const extractor = new FormatTextExtractor();
const GIBIBYTE = 1024 * 1024 * 1024;

async function docx(
  children: Block[],
  extras: { headers?: Header; footers?: Footer } = {},
): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children,
        ...(extras.headers ? { headers: { default: extras.headers } } : {}),
        ...(extras.footers ? { footers: { default: extras.footers } } : {}),
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

const cell = (text: string, options: { columnSpan?: number; rowSpan?: number } = {}) =>
  new TableCell({ children: [new Paragraph(text)], ...options });

async function textOf(bytes: Uint8Array) {
  return extractor.extract({ bytes, extension: "docx" });
}

describe("reading a DOCX document", () => {
  it("joins the body's paragraphs with newlines, in one unit", async () => {
    const bytes = await docx([new Paragraph("First 第一"), new Paragraph("Second café 😀")]);
    expect(await textOf(bytes)).toEqual({ ok: true, units: ["First 第一\nSecond café 😀"] });
  });

  it("adds a newline for an empty paragraph, as Dify (a, empty, b → a\\n\\n\\nb)", async () => {
    const bytes = await docx([new Paragraph("a"), new Paragraph(""), new Paragraph("b")]);
    expect(await textOf(bytes)).toEqual({ ok: true, units: ["a\n\n\nb"] });
  });

  it("keeps the spaces between runs: our fix, Dify welds 'The ' and 'quick' (#42831)", async () => {
    const paragraph = new Paragraph({
      children: [new TextRun("The "), new TextRun({ text: "quick", bold: true }), new TextRun(" brown fox ")],
    });
    expect(await textOf(await docx([paragraph]))).toEqual({ ok: true, units: ["The quick brown fox"] });
  });

  it("reads line breaks as newlines and tabs as tabs", async () => {
    const paragraph = new Paragraph({
      children: [
        new TextRun("one"),
        new TextRun({ text: "two", break: 1 }),
        new TextRun({ children: [new Tab(), "three"] }),
      ],
    });
    expect(await textOf(await docx([paragraph]))).toEqual({ ok: true, units: ["one\ntwo\tthree"] });
  });

  it("writes an external link as [text](url) and leaves an internal one as text", async () => {
    const paragraph = new Paragraph({
      children: [
        new TextRun("See "),
        new ExternalHyperlink({ link: "https://example.com/a", children: [new TextRun("the docs")] }),
        new TextRun(" and "),
        new InternalHyperlink({ anchor: "part2", children: [new TextRun("part two")] }),
      ],
    });
    expect(await textOf(await docx([paragraph]))).toEqual({
      ok: true,
      units: ["See [the docs](https://example.com/a) and part two"],
    });
  });

  it("writes a table as markdown: the first row as header, then | --- |", async () => {
    const table = new Table({
      rows: [
        new TableRow({ children: [cell("名前"), cell("Ville")] }),
        new TableRow({ children: [cell("太郎"), cell("Zürich")] }),
      ],
    });
    const bytes = await docx([new Paragraph("Before"), table, new Paragraph("After")]);
    expect(await textOf(bytes)).toEqual({
      ok: true,
      units: ["Before\n| 名前 | Ville |\n| --- | --- |\n| 太郎 | Zürich |\nAfter"],
    });
  });

  it("puts a merged cell's text in its first column and repeats a vertical merge, as Dify", async () => {
    const table = new Table({
      rows: [
        new TableRow({ children: [cell("Wide", { columnSpan: 2 }), cell("C")] }),
        new TableRow({ children: [cell("Tall", { rowSpan: 2 }), cell("x"), cell("y")] }),
        new TableRow({ children: [cell("z"), cell("w")] }),
      ],
    });
    expect(await textOf(await docx([table]))).toEqual({
      ok: true,
      units: ["| Wide |  | C |\n| --- | --- | --- |\n| Tall | x | y |\n| Tall | z | w |"],
    });
  });

  it("does not read headers and footers, as Dify", async () => {
    const bytes = await docx([new Paragraph("Body")], {
      headers: new Header({ children: [new Paragraph("Header text")] }),
      footers: new Footer({ children: [new Paragraph("Footer text")] }),
    });
    expect(await textOf(bytes)).toEqual({ ok: true, units: ["Body"] });
  });
});

describe("refusing a DOCX file that cannot be read", () => {
  it.each([
    [
      "broken bytes",
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]),
      "The DOCX document cannot be read: its zip archive is broken.",
    ],
    [
      "a PNG named .docx",
      PNG_BYTES,
      "The DOCX document cannot be read: it is not a zip archive, as the format requires.",
    ],
    [
      "a password-protected document",
      compoundFileBytes(true),
      "The DOCX document is encrypted (password-protected).",
    ],
    [
      "an old .doc renamed",
      compoundFileBytes(false),
      "The DOCX document is an old binary .doc file, not the zip-based format its name says.",
    ],
    [
      "a zip without a Word document in it",
      zipBytes([honestEntry("hello.txt", "hi")]),
      "The DOCX document cannot be read: it has no word/document.xml, so it is not a Word document.",
    ],
  ])("refuses %s", async (_behaviour, bytes, reason) => {
    expect(await textOf(bytes)).toEqual({ ok: false, reason });
  });

  it("refuses a zip bomb whose document declares 1 GB, without inflating it", async () => {
    const deflated = deflatedZeros(1024);
    const bytes = zipBytes([{ name: "word/document.xml", deflated, declaredSize: GIBIBYTE, crc32: 0 }]);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    expect(await textOf(bytes)).toEqual({
      ok: false,
      reason: "The DOCX document is refused: it inflates to over 100 MB (a decompression bomb).",
    });
  });

  it("stops a zip bomb that lies about its size at the size it declares, keeping memory bounded", async () => {
    const deflated = deflatedZeros(1024);
    const bytes = zipBytes([{ name: "word/document.xml", deflated, declaredSize: 4096, crc32: 0 }]);
    const before = process.memoryUsage().arrayBuffers;
    expect(await textOf(bytes)).toEqual({
      ok: false,
      reason: "The DOCX document is refused: its archive declares false sizes (a decompression bomb).",
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 1024 * 1024);
  });

  it("refuses an archive with too many entries before reading them", async () => {
    const entries = Array.from({ length: 20 }, (_, index) => honestEntry(`part${index}.xml`, "<x/>"));
    const small = new FormatTextExtractor({ maxZipEntries: 10 });
    expect(await small.extract({ bytes: zipBytes(entries), extension: "docx" })).toEqual({
      ok: false,
      reason: "The DOCX document is refused: its archive has too many entries (over 10).",
    });
  });

  it("refuses a large part compressed past the ratio limit", async () => {
    const deflated = deflatedZeros(20);
    const bytes = zipBytes([
      { name: "word/document.xml", deflated, declaredSize: 20 * 1024 * 1024, crc32: 0 },
    ]);
    expect(await textOf(bytes)).toEqual({
      ok: false,
      reason: "The DOCX document is refused: a part is compressed over 100 to 1 (a decompression bomb).",
    });
  });
});

describe("refusing an ambiguous archive", () => {
  it("refuses two parts of one name, which readers could take either way", async () => {
    const bytes = zipBytes([
      honestEntry("word/document.xml", "<a/>"),
      honestEntry("word/document.xml", "<b/>"),
    ]);
    expect(await textOf(bytes)).toEqual({
      ok: false,
      reason: "The DOCX document cannot be read: its archive holds two parts named word/document.xml.",
    });
  });
});
