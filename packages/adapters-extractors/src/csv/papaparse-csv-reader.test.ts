import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";

const extractor = new FormatTextExtractor();
const read = (content: string | Uint8Array, reader = extractor) =>
  reader.extract({ bytes: typeof content === "string" ? Buffer.from(content) : content, extension: "csv" });

describe("reading a CSV file", () => {
  it.each([
    [
      "comma separated, one unit per data row",
      "name,city\nAnn,Zürich\n太郎,東京 😀\n",
      ["name: Ann;city: Zürich", "name: 太郎;city: 東京 😀"],
    ],
    [
      "our fix: semicolon separated is detected (#42353)",
      "name;price\nPen;1,50\nInk;2,00\n",
      ["name: Pen;price: 1,50", "name: Ink;price: 2,00"],
    ],
    ["our fix: tab separated is detected", "a\tb\n1\t2\n3\t4\n", ["a: 1;b: 2", "a: 3;b: 4"]],
    [
      "quoted fields keep commas, quotes and newlines",
      'q,a\n"Why, then?","He said ""no""\nand left"\n',
      ['q: Why, then?;a: He said "no"\nand left'],
    ],
    [
      "CRLF line ends and blank lines are skipped, as pandas",
      "a,b\r\n1,2\r\n\r\n  \r\n3,4\r\n",
      ["a: 1;b: 2", "a: 3;b: 4"],
    ],
    ["a row of blank fields gives no unit", "a,b\n1,2\n,\n3,4\n", ["a: 1;b: 2", "a: 3;b: 4"]],
    ["a UTF-8 BOM is dropped from the first header, as pandas", "\uFEFFid,v\n1,x\n", ["id: 1;v: x"]],
    [
      "our fix: a long row is kept, not silently dropped (#17530)",
      "a,b\n1,2,3\n4,5\n",
      ["a: 1;b: 2;Unnamed: 2: 3", "a: 4;b: 5"],
    ],
    ["a single column is read as one", "word\nhello\nworld\n", ["word: hello", "word: world"]],
  ])("%s", async (_behaviour, content, units) => {
    expect(await read(content)).toEqual({ ok: true, units });
  });

  it("decodes a legacy encoding when the file is not UTF-8", async () => {
    const content =
      "produit,description\ncafé,Un café crème très apprécié à Noël\nthé,Un thé léger déjà célèbre\n";
    expect(await read(iconv.encode(content, "windows-1252"))).toEqual({
      ok: true,
      units: [
        "produit: café;description: Un café crème très apprécié à Noël",
        "produit: thé;description: Un thé léger déjà célèbre",
      ],
    });
  });

  it.each([
    [
      "a quoted field that is never closed",
      'a,b\n"open,1\n2,3\n',
      "The CSV file cannot be read: a quoted field is never closed.",
    ],
    ["only blank lines", "\n\n\n", "The CSV file has no header row: it holds no text."],
  ])("refuses %s", async (_behaviour, content, reason) => {
    expect(await read(content)).toEqual({ ok: false, reason });
  });

  it("refuses a file with more rows than the limit", async () => {
    expect(await read("a\n1\n2\n3\n", new FormatTextExtractor({ maxRows: 2 }))).toEqual({
      ok: false,
      reason: "The file has too many rows (over 2).",
    });
  });
});
