import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";

const extractor = new FormatTextExtractor();

describe("reading an HTML file", () => {
  it("reads a document as one unit, its blocks apart", async () => {
    const html =
      "<!doctype html><html><head><title>Menu</title></head><body><h1>Café</h1><p>Crème 😀</p></body></html>";
    expect(await extractor.extract({ bytes: Buffer.from(html), extension: "htm" })).toEqual({
      ok: true,
      units: ["Menu\nCafé\nCrème 😀"],
    });
  });

  it("decodes the encoding its <meta> declares when it is not UTF-8", async () => {
    const html = '<html><head><meta charset="Shift_JIS"></head><body><p>日本語</p></body></html>';
    expect(await extractor.extract({ bytes: iconv.encode(html, "shift_jis"), extension: "html" })).toEqual({
      ok: true,
      units: ["日本語"],
    });
  });

  it("drops a UTF-8 BOM, as BeautifulSoup does", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<p>x</p>")]);
    expect(await extractor.extract({ bytes, extension: "html" })).toEqual({ ok: true, units: ["x"] });
  });
});
