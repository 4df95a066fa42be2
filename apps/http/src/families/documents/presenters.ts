import type { DocumentListItem } from "@service-api/application";
import {
  type DocumentMetadataOnly,
  type DocumentView,
  type DocumentWithoutMetadata,
  displayStatus,
  type MetadataEntry,
  type ProcessRule,
  type UploadFile,
} from "@service-api/domain";
import type { z } from "zod";
import type { documentListItem, documentView } from "./schemas.js";

const presentFile = (file: UploadFile) => ({
  id: file.id,
  name: file.name,
  size: file.size,
  extension: file.extension,
  mime_type: file.mimeType,
  created_by: file.createdBy,
  created_at: file.createdAt,
});

/** `{}`, as the schema's empty object. */
const EMPTY: Record<string, never> = {};

const presentRule = (rule: ProcessRule | undefined) =>
  rule ? { id: rule.id, mode: rule.mode, rules: rule.rules } : EMPTY;

const presentSource = (file: UploadFile | undefined) => (file ? { upload_file: presentFile(file) } : EMPTY);

const presentMetadata = (entries: MetadataEntry[]) =>
  entries.map(({ id, name, type, value }) => ({ id, name, type, value }));

/** The fields Get Document and the list share, from `name` to `archived`, in Dify's order. */
const presentState = (document: DocumentWithoutMetadata | DocumentListItem["document"]) => ({
  name: document.name,
  created_from: document.createdFrom,
  created_by: document.createdBy,
  created_at: document.createdAt,
  tokens: document.tokens,
  indexing_status: document.indexingStatus,
  error: document.error,
  enabled: document.enabled,
  disabled_at: document.disabledAt,
  disabled_by: document.disabledBy,
  archived: document.archived,
});

/**
 * Every field but `doc_metadata`, in Dify's order; `doc_metadata` goes after `doc_type` when shown
 * (left undefined otherwise, which JSON leaves out, rather than spread in: a spread copies property
 * by property, per request).
 */
function presentFields(document: DocumentWithoutMetadata, metadata?: MetadataEntry[]) {
  return {
    id: document.id,
    position: document.position,
    data_source_type: document.dataSourceType,
    data_source_info: presentSource(document.uploadFile),
    dataset_process_rule_id: document.processRuleId,
    dataset_process_rule: presentRule(document.datasetProcessRule),
    document_process_rule: presentRule(document.documentProcessRule),
    ...presentState(document),
    display_status: document.displayStatus,
    hit_count: document.hitCount,
    doc_form: document.docForm,
    doc_language: document.docLanguage,
    doc_type: document.docType,
    doc_metadata: metadata && presentMetadata(metadata),
    completed_at: document.completedAt,
    updated_at: document.updatedAt,
    indexing_latency: document.indexingLatency,
    segment_count: document.segmentCount,
    average_segment_length: document.averageSegmentLength,
    summary_index_status: document.summaryIndexStatus,
    need_summary: document.needSummary,
  };
}

const presentOnly = (document: DocumentMetadataOnly) => ({
  id: document.id,
  doc_type: document.docType,
  doc_metadata: presentMetadata(document.docMetadata),
});

/** The Get Document body for the requested view. */
export function presentDocument(result: DocumentView): z.output<typeof documentView> {
  switch (result.view) {
    case "only":
      return presentOnly(result.document);
    case "without":
      return presentFields(result.document);
    default:
      return presentFields(result.document, result.document.docMetadata);
  }
}

/** A document as the list shows it: the raw data source beside Get Document's, and its word count. */
export function presentDocumentListItem({
  document,
  uploadFile,
  hitCount,
  metadata,
}: DocumentListItem): z.output<typeof documentListItem> {
  return {
    id: document.id,
    position: document.position,
    data_source_type: document.dataSourceType,
    data_source_info:
      document.dataSourceType === "upload_file" && document.uploadFileId
        ? { upload_file_id: document.uploadFileId }
        : EMPTY,
    data_source_detail_dict: presentSource(uploadFile),
    dataset_process_rule_id: document.processRule.id,
    ...presentState(document),
    display_status: displayStatus(document),
    word_count: document.wordCount,
    hit_count: hitCount,
    doc_form: document.docForm,
    doc_metadata: presentMetadata(metadata),
    summary_index_status: document.summaryIndexStatus,
    need_summary: document.needSummary,
  };
}
