import { formatBytes } from "../limits.js";
import type { TextBudget } from "../text-budget.js";
import { UnreadableFile } from "../unreadable-file.js";
import { inflatedStreamBytes } from "./pdf-stream-check.js";

// PDF.js's legacy build runs in Node without a worker thread (its "fake worker" parses on the
// calling thread) and without a canvas: text extraction draws nothing.
type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = () => {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs;
};

// PDF.js accepts junk before the header, as readers do; past this many bytes it is not a PDF.
const HEADER_SEARCH_BYTES = 1024;

export interface PdfReading {
  budget: TextBudget;
  maxPages: number;
  /** Bytes the PDF's Flate streams (but images) may inflate to. */
  maxInflatedBytes: number;
}

/**
 * One unit per page, in order, as Dify's `PdfExtractor` (PDFium's `get_text_range`): the page's text
 * without layout analysis, `""` for a page without text (no OCR). Lines end with `\n` (our fix: PDFium
 * ends them with `\r\n` and Dify keeps it). Images are not turned into links (Dify stores them).
 */
export async function readPdf(bytes: Uint8Array, reading: PdfReading): Promise<string[]> {
  const { budget, maxPages, maxInflatedBytes } = reading;
  if (!hasPdfHeader(bytes)) throw new UnreadableFile("The file is not a PDF.");
  if ((await inflatedStreamBytes(bytes, maxInflatedBytes)) > maxInflatedBytes) {
    throw new UnreadableFile(
      `The PDF is refused: its streams inflate to over ${formatBytes(maxInflatedBytes)} (a decompression bomb).`,
    );
  }
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  // PDF.js takes the buffer over and refuses a Node Buffer: it gets a plain copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    const document = await task.promise.catch((error: unknown) => {
      throw new UnreadableFile(needsPassword(error) ? "The PDF is encrypted." : "The PDF cannot be read.");
    });
    if (document.numPages > maxPages) {
      throw new UnreadableFile(`The PDF has too many pages (over ${maxPages.toLocaleString("en-US")}).`);
    }
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if ("str" in item) text += item.hasEOL ? `${item.str}\n` : item.str;
      }
      pages.push(budget.spend(text));
      page.cleanup();
    }
    return pages;
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile("The PDF cannot be read.");
  } finally {
    // Destroying a task whose document failed to load can reject too; the reason is already known.
    await task.destroy().catch(() => {});
  }
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, HEADER_SEARCH_BYTES));
  return head.includes("%PDF-");
}

// PDF.js rebuilds its errors from the (fake) worker's messages: they are told apart by name.
function needsPassword(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { name?: unknown }).name === "PasswordException"
  );
}
