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
  /** The batch of its latest create or update (20 digits); null for one imported without. */
  batch: string | null;
  // The rest: `INDEXING_STEPS`.
  /** When each step of its latest indexing began or ended (Unix seconds); null until then. */
  processingStartedAt: number | null;
  parsingCompletedAt: number | null;
  cleaningCompletedAt: number | null;
  splittingCompletedAt: number | null;
  pausedAt: number | null;
  stoppedAt: number | null;
}

/** A chunk (segment) of a document. */
export interface Chunk {
  id: string;
  documentId: string;
  position: number;
  content: string;
  hitCount: number;
}

/** When each step of a document's latest indexing began or ended: what indexing-status shows. */
export type IndexingSteps = Pick<
  Document,
  | "processingStartedAt"
  | "parsingCompletedAt"
  | "cleaningCompletedAt"
  | "splittingCompletedAt"
  | "pausedAt"
  | "stoppedAt"
>;

export const SEGMENT_STATUSES = ["waiting", "indexing", "completed", "error", "re_segment"] as const;
export type SegmentStatus = (typeof SEGMENT_STATUSES)[number];

/** A chunk with all Dify's segment object shows of it. Times are Unix seconds. */
export interface Segment extends Chunk {
  /** The answer of a QA segment; null otherwise. */
  answer: string | null;
  /** Its length in code points (and the answer's), as Dify counts words. */
  wordCount: number;
  tokens: number;
  keywords: string[];
  indexNodeId: string | null;
  /** SHA-256 (hex) of the chunk before leading symbols went, + "None": Dify's hash. */
  indexNodeHash: string | null;
  enabled: boolean;
  disabledAt: number | null;
  disabledBy: string | null;
  status: SegmentStatus;
  createdBy: string | null;
  createdAt: number | null;
  updatedAt: number | null;
  updatedBy: string | null;
  indexingAt: number | null;
  completedAt: number | null;
  error: string | null;
  stoppedAt: number | null;
}

/** A child chunk of a hierarchical document's segment. */
export interface ChildChunk {
  id: string;
  segmentId: string;
  documentId: string;
  position: number;
  content: string;
  wordCount: number;
  indexNodeId: string | null;
  indexNodeHash: string | null;
  /** `automatic` when indexing made it, `customized` when a caller did. */
  type: "automatic" | "customized";
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
  updatedBy: string | null;
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
