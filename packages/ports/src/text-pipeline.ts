import type { ChunkForm, ChunkingMode, PreparedSegment, StoredRules } from "@service-api/domain";
import type { Extraction, FileToExtract } from "./text-extractor.js";

/** The rule a document is chunked by, as stored. */
export interface ChunkingRule {
  mode: ChunkingMode;
  rules: StoredRules;
  form: ChunkForm;
}

/** A chunk as indexing stores it, and a segment with its children (`prepareDrafts`). */
export type { PreparedChunk as HashedChunk, PreparedSegment } from "@service-api/domain";

/**
 * Reads and chunks documents off the caller's event loop (worker threads, or a process of their
 * own), so that indexing never stalls serving. Each call is independent; calls may run at once.
 */
export interface TextPipeline {
  /** The file's text units (`TextExtractor`), or why it cannot be read. */
  extract(file: FileToExtract): Promise<Extraction>;
  /** The units chunked as Dify chunks them (`chunkDocument`), each chunk hashed. */
  chunk(units: readonly string[], rule: ChunkingRule): Promise<PreparedSegment[]>;
  /** Ends the threads; calls under way reject. */
  close(): Promise<void>;
}
