import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import { PNG_BYTES } from "../testing/zip.test-support.js";

const extractor = new FormatTextExtractor();

describe("reading txt, vtt and properties files", () => {
  it.each([
    ["txt", "Hello 世界, café 😀\nsecond line\n", "Hello 世界, café 😀\nsecond line\n"],
    ["txt", "crlf\r\nand a lone\rcarriage return", "crlf\nand a lone\ncarriage return"],
    ["txt", "\uFEFFa BOM survives as U+FEFF, as in Dify", "\uFEFFa BOM survives as U+FEFF, as in Dify"],
    ["vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", "WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n"],
    ["properties", "greeting=\\u4f60\\u597d\nkey = value\n", "greeting=\\u4f60\\u597d\nkey = value\n"],
  ])("reads a .%s file as one unit, the whole text as written: %j", async (extension, content, text) => {
    expect(await extractor.extract({ bytes: Buffer.from(content), extension })).toEqual({
      ok: true,
      units: [text],
    });
  });

  it("refuses a PNG named .txt", async () => {
    expect(await extractor.extract({ bytes: PNG_BYTES, extension: "txt" })).toEqual({
      ok: false,
      reason: "The file is not text: it holds binary data.",
    });
  });
});
