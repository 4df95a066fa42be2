import type { Dataset, ProcessRule } from "./dataset.js";
import { type DisplayStatus, displayStatus } from "./display-status.js";
import {
  averageChunkLength,
  type ChunkStats,
  type Document,
  type IndexingSteps,
  type UploadFile,
} from "./document.js";
import { InvalidMetadataError } from "./errors.js";
import type { MetadataEntry } from "./metadata.js";
import { shownInMessage } from "./text.js";

export const METADATA_VIEWS = ["all", "only", "without"] as const;
export type MetadataView = (typeof METADATA_VIEWS)[number];

/** Reads the `metadata` query value: absent means `all`; anything else but the three names fails. */
export function parseMetadataView(value: unknown): MetadataView {
  if (value === undefined) return "all";
  if ((METADATA_VIEWS as readonly unknown[]).includes(value)) return value as MetadataView;
  throw new InvalidMetadataError(shownInMessage(value));
}

/** Everything Get Document can show of a document. */
export interface DocumentDetail
  extends Omit<
    Document,
    "datasetId" | "uploadFileId" | "processRule" | "isPaused" | "wordCount" | "batch" | keyof IndexingSteps
  > {
  uploadFile: UploadFile | undefined;
  processRuleId: string;
  datasetProcessRule: ProcessRule | undefined;
  documentProcessRule: ProcessRule;
  displayStatus: DisplayStatus | null;
  hitCount: number;
  segmentCount: number;
  averageSegmentLength: number;
  docMetadata: MetadataEntry[];
}

export type DocumentMetadataOnly = Pick<DocumentDetail, "id" | "docType" | "docMetadata">;
export type DocumentWithoutMetadata = Omit<DocumentDetail, "docMetadata">;

/** The document in one of the three views. */
export type DocumentView =
  | { view: "all"; document: DocumentDetail }
  | { view: "only"; document: DocumentMetadataOnly }
  | { view: "without"; document: DocumentWithoutMetadata };

export interface DocumentFacts {
  document: Document;
  dataset: Dataset;
  uploadFile: UploadFile | undefined;
  chunks: ChunkStats;
  metadata: MetadataEntry[];
}

/**
 * Assembles the full detail of a document from what the store holds. Each field is named, not
 * spread: Get Document builds one per request, and a spread copies property by property.
 */
export function documentDetail({
  document,
  dataset,
  uploadFile,
  chunks,
  metadata,
}: DocumentFacts): DocumentDetail {
  return {
    id: document.id,
    position: document.position,
    dataSourceType: document.dataSourceType,
    name: document.name,
    createdFrom: document.createdFrom,
    createdBy: document.createdBy,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    tokens: document.tokens,
    indexingStatus: document.indexingStatus,
    error: document.error,
    enabled: document.enabled,
    disabledAt: document.disabledAt,
    disabledBy: document.disabledBy,
    archived: document.archived,
    archivedAt: document.archivedAt,
    archivedBy: document.archivedBy,
    docForm: document.docForm,
    docLanguage: document.docLanguage,
    docType: document.docType,
    completedAt: document.completedAt,
    indexingLatency: document.indexingLatency,
    summaryIndexStatus: document.summaryIndexStatus,
    needSummary: document.needSummary,
    uploadFile,
    processRuleId: document.processRule.id,
    datasetProcessRule: dataset.processRule,
    documentProcessRule: document.processRule,
    displayStatus: displayStatus(document),
    hitCount: chunks.hitCount,
    segmentCount: chunks.count,
    averageSegmentLength: averageChunkLength(chunks),
    docMetadata: metadata,
  };
}

/** Narrows a detail to the fields a view shows. */
export function applyMetadataView(detail: DocumentDetail, view: MetadataView): DocumentView {
  switch (view) {
    case "only":
      return { view, document: { id: detail.id, docType: detail.docType, docMetadata: detail.docMetadata } };
    case "without": {
      const { docMetadata, ...rest } = detail;
      return { view, document: rest };
    }
    default:
      return { view, document: detail };
  }
}
