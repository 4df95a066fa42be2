import type { Extraction, FileToExtract, TextExtractor } from "@service-api/ports";
import { readCsv } from "./csv/papaparse-csv-reader.js";
import { readDocx } from "./docx/docx-reader.js";
import { readHtml } from "./html/html-reader.js";
import { defaultExtractionLimits, type ExtractionLimits, formatBytes } from "./limits.js";
import { readMarkdown } from "./markdown/markdown-reader.js";
import { readPdf } from "./pdf/pdfjs-pdf-reader.js";
import { readPlainText } from "./text/plain-text-reader.js";
import { TextBudget } from "./text-budget.js";
import { UnreadableFile } from "./unreadable-file.js";
import { readXlsx } from "./xlsx/exceljs-xlsx-reader.js";

type Reader = (
  bytes: Uint8Array,
  limits: ExtractionLimits,
  budget: TextBudget,
) => string[] | Promise<string[]>;

// Dify's built-in extractor per extension (`ExtractProcessor.extract`), less `xls`: no maintained
// library on the npm registry reads it. Picked by the extension alone, never by MIME type or content.
const READERS: Record<string, Reader> = {
  txt: readPlainText,
  vtt: readPlainText,
  properties: readPlainText,
  md: readMarkdown,
  markdown: readMarkdown,
  mdx: readMarkdown,
  html: readHtml,
  htm: readHtml,
  pdf: (bytes, limits, budget) =>
    readPdf(bytes, { budget, maxPages: limits.maxPages, maxInflatedBytes: limits.maxUncompressedBytes }),
  docx: readDocx,
  xlsx: readXlsx,
  csv: (bytes, _limits, budget) => readCsv(bytes, budget),
};

/** The extensions read here, lowercase, without the dot: what a dataset accepts as an upload. */
export const READABLE_EXTENSIONS: readonly string[] = Object.keys(READERS);

/**
 * The `TextExtractor` for the formats Dify reads without Unstructured, each with a maintained library
 * made for it, giving the units Dify's extractor gives (with the fixes in this package's README). A
 * file's content never makes it throw: a broken, encrypted, empty, mislabelled or oversized file, or
 * a decompression bomb, is `{ ok: false, reason }`.
 */
export class FormatTextExtractor implements TextExtractor {
  readonly extensions: readonly string[] = READABLE_EXTENSIONS;
  private readonly limits: ExtractionLimits;

  constructor(limits: Partial<ExtractionLimits> = {}) {
    this.limits = { ...defaultExtractionLimits, ...limits };
  }

  async extract(file: FileToExtract): Promise<Extraction> {
    const extension = file.extension.toLowerCase();
    const reader = Object.hasOwn(READERS, extension) ? READERS[extension] : undefined;
    if (reader === undefined) {
      return refused(
        extension === ""
          ? "Files without an extension cannot be read."
          : `Files of type .${extension} cannot be read.`,
      );
    }
    if (file.bytes.byteLength === 0) return refused("The file is empty.");
    if (file.bytes.byteLength > this.limits.maxInputBytes) {
      return refused(`The file is too large to read (over ${formatBytes(this.limits.maxInputBytes)}).`);
    }
    const budget = new TextBudget(this.limits.maxTextCharacters, this.limits.maxRows);
    try {
      return { ok: true, units: await reader(file.bytes, this.limits, budget) };
    } catch (error) {
      if (error instanceof UnreadableFile) return refused(error.reason);
      // A library's own error on a file it cannot parse: the file is what is wrong.
      return refused(`The .${extension} file cannot be read.`);
    }
  }
}

function refused(reason: string): Extraction {
  return { ok: false, reason };
}
