import { describe, expect, it } from "vitest";
import { FormatTextExtractor } from "./format-text-extractor.js";
import { PNG_BYTES } from "./testing/zip.test-support.js";

const extractor = new FormatTextExtractor();
const EXTENSIONS = [
  "txt",
  "vtt",
  "properties",
  "md",
  "markdown",
  "mdx",
  "html",
  "htm",
  "pdf",
  "docx",
  "xlsx",
  "csv",
];

describe("FormatTextExtractor", () => {
  it("reads Dify's built-in extensions but xls, which no maintained npm library reads", () => {
    expect([...extractor.extensions].sort()).toEqual([...EXTENSIONS].sort());
  });

  it.each(["xls", "doc", "pptx", "exe", "toString"])("refuses the extension %j", async (extension) => {
    expect(await extractor.extract({ bytes: Buffer.from("x"), extension })).toEqual({
      ok: false,
      reason: `Files of type .${extension.toLowerCase()} cannot be read.`,
    });
  });

  it("refuses a file without an extension", async () => {
    expect(await extractor.extract({ bytes: Buffer.from("x"), extension: "" })).toEqual({
      ok: false,
      reason: "Files without an extension cannot be read.",
    });
  });

  it("refuses a text file past the text limit", async () => {
    const small = new FormatTextExtractor({ maxTextCharacters: 5 });
    expect(await small.extract({ bytes: Buffer.from("# a long markdown text"), extension: "md" })).toEqual({
      ok: false,
      reason: "The file's text is too long (over 5 characters).",
    });
  });

  it("picks the reader by the extension alone, never the content", async () => {
    const html = Buffer.from("<h1>Title</h1><p>Body</p>");
    expect(await extractor.extract({ bytes: html, extension: "txt" })).toEqual({
      ok: true,
      units: ["<h1>Title</h1><p>Body</p>"],
    });
    expect(await extractor.extract({ bytes: html, extension: "html" })).toEqual({
      ok: true,
      units: ["Title\nBody"],
    });
  });

  it("reads a markdown file into header sections", async () => {
    const bytes = Buffer.from("# Über\r\nText 😀\r\n## Next\r\nmore");
    expect(await extractor.extract({ bytes, extension: "mdx" })).toEqual({
      ok: true,
      units: ["", "\n\nÜber\nText 😀", "\n\nNext\nmore"],
    });
  });

  it.each(EXTENSIONS)("refuses an empty .%s file", async (extension) => {
    expect(await extractor.extract({ bytes: new Uint8Array(), extension })).toEqual({
      ok: false,
      reason: "The file is empty.",
    });
  });

  it("refuses a file over the input limit before reading it", async () => {
    const small = new FormatTextExtractor({ maxInputBytes: 1024 });
    expect(await small.extract({ bytes: Buffer.alloc(2048, 0x61), extension: "txt" })).toEqual({
      ok: false,
      reason: "The file is too large to read (over 1 KB).",
    });
  });

  it("refuses a file whose text passes the text limit", async () => {
    const small = new FormatTextExtractor({ maxTextCharacters: 10 });
    expect(await small.extract({ bytes: Buffer.from("a,b\n1,2\n3,4\n5,6\n"), extension: "csv" })).toEqual({
      ok: false,
      reason: "The file's text is too long (over 10 characters).",
    });
  });

  it.each(EXTENSIONS)("answers a reason, never throws, for random bytes named .%s", async (extension) => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 256));
    const extraction = await extractor.extract({ bytes: random, extension });
    expect(extraction.ok).toBe(false);
  });

  it.each(["md", "csv", "html"])("refuses a PNG named .%s as binary", async (extension) => {
    expect(await extractor.extract({ bytes: PNG_BYTES, extension })).toEqual({
      ok: false,
      reason: "The file is not text: it holds binary data.",
    });
  });
});
