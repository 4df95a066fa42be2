/** An uploaded file to read: its bytes and the extension its name ends in (lowercase, no dot). */
export interface FileToExtract {
  bytes: Uint8Array;
  extension: string;
}

/**
 * What a file reads as: the units Dify's extractor makes, in order (a text file is one unit; a CSV
 * or sheet row, a PDF page, a markdown section are one each), each chunked on its own. A file that
 * cannot be read (broken, encrypted, empty, not what its extension says, a decompression bomb) is a
 * short reason, said to the user as the document's `error`.
 */
export type Extraction = { ok: true; units: string[] } | { ok: false; reason: string };

/**
 * Reads files into text. Runs off the request path (an indexing worker); never throws for a
 * file's content, only for a fault of its own. Memory stays bounded by its limits, whatever the file.
 */
export interface TextExtractor {
  /** The extensions it reads, lowercase, without the dot. */
  readonly extensions: readonly string[];
  /** The file's units, or why it cannot be read. An extension not in `extensions` is refused. */
  extract(file: FileToExtract): Promise<Extraction>;
}
