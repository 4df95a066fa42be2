/**
 * What one extraction may cost, whatever the file. Every reader checks the part it can: the input
 * before parsing, a zip's central directory before inflating, the text and the units as they grow.
 */
export interface ExtractionLimits {
  /** Bytes of the uploaded file. Dify's default upload limit (`UPLOAD_FILE_SIZE_LIMIT`, 15 MiB). */
  maxInputBytes: number;
  /** Characters (UTF-16 code units) of all units together. */
  maxTextCharacters: number;
  /** Pages of a PDF. */
  maxPages: number;
  /** Data rows of a CSV file or of all the sheets of a workbook together. */
  maxRows: number;
  /**
   * Bytes a DOCX or XLSX archive may hold once inflated (declared and actual, all entries together),
   * and that a PDF's Flate streams, but images, may inflate to.
   */
  maxUncompressedBytes: number;
  /** Entries in a DOCX or XLSX archive. */
  maxZipEntries: number;
  /** Inflated-to-compressed ratio refused for an entry of at least `ratioCheckedFromBytes`. */
  maxCompressionRatio: number;
  /** Inflated size from which an entry's ratio is checked: small, very regular XML parts compress far. */
  ratioCheckedFromBytes: number;
  /**
   * Cells of all the sheets of a workbook together, counted before exceljs loads it: exceljs holds
   * the whole workbook in memory, some hundreds of bytes per cell.
   */
  maxSpreadsheetCells: number;
}

const MEBIBYTE = 1024 * 1024;

export const defaultExtractionLimits: ExtractionLimits = {
  maxInputBytes: 15 * MEBIBYTE,
  maxTextCharacters: 50 * MEBIBYTE,
  maxPages: 5_000,
  maxRows: 200_000,
  maxUncompressedBytes: 100 * MEBIBYTE,
  maxZipEntries: 10_000,
  maxCompressionRatio: 100,
  ratioCheckedFromBytes: 10 * MEBIBYTE,
  maxSpreadsheetCells: 2_000_000,
};

/** A number of bytes as a person reads it in a reason: `15 MB`, `512 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= MEBIBYTE) return `${Math.round((bytes / MEBIBYTE) * 10) / 10} MB`;
  return `${Math.round((bytes / 1024) * 10) / 10} KB`;
}
