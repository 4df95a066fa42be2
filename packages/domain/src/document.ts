import type { ProcessRule } from "./dataset.js";

export const INDEXING_STATUSES = [
  "waiting",
  "parsing",
  "cleaning",
  "splitting",
  "indexing",
  "completed",
  "error",
  "paused",
] as const;
export type IndexingStatus = (typeof INDEXING_STATUSES)[number];

export type DataSourceType = "upload_file" | "thirdparty_import";
export type DocForm = "text_model" | "hierarchical_model" | "qa_model";

export interface UploadFile {
  id: string;
  name: string;
  size: number;
  extension: string;
  mimeType: string;
  createdBy: string;
  createdAt: number;
}

/** A document of a knowledge base, as stored. Timestamps are Unix seconds. */
export interface Document {
  id: string;
  datasetId: string;
  position: number;
  dataSourceType: DataSourceType;
  /** The uploaded file's id when `dataSourceType` is `upload_file`. */
  uploadFileId: string | null;
  /** The processing rule applied to this document. */
  processRule: ProcessRule;
  name: string;
  createdFrom: "api" | "web";
  createdBy: string;
  createdAt: number;
  updatedAt: number | null;
  tokens: number;
  wordCount: number;
  indexingStatus: IndexingStatus;
  isPaused: boolean;
  error: string | null;
  enabled: boolean;
  disabledAt: number | null;
  disabledBy: string | null;
  archived: boolean;
  archivedAt: number | null;
  archivedBy: string | null;
  docForm: DocForm;
  docLanguage: string;
  docType: string | null;
  completedAt: number | null;
  indexingLatency: number | null;
  summaryIndexStatus: string | null;
  needSummary: boolean;
}

/** A chunk (segment) of a document. */
export interface Chunk {
  id: string;
  documentId: string;
  position: number;
  content: string;
  hitCount: number;
}

/** Aggregates over a document's chunks. */
export interface ChunkStats {
  count: number;
  hitCount: number;
  characters: number;
}

export const NO_CHUNKS: ChunkStats = { count: 0, hitCount: 0, characters: 0 };

/** Average characters per chunk, floored; 0 when there are none. */
export function averageChunkLength(stats: ChunkStats): number {
  return stats.count === 0 ? 0 : Math.floor(stats.characters / stats.count);
}
