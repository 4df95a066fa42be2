import {
  type DataSourceType,
  type DocForm,
  type Document,
  displayStatus,
  type IndexingStatus,
} from "@service-api/domain";
import type { Insertable, Selectable } from "kysely";
import type { DocumentTable } from "../schema.js";
import { fromFlag, processRuleColumns, processRuleFromColumns, toFlag } from "./rows.js";

export function documentToRow(document: Document): Insertable<DocumentTable> {
  return {
    id: document.id,
    dataset_id: document.datasetId,
    position: document.position,
    data_source_type: document.dataSourceType,
    upload_file_id: document.uploadFileId,
    ...processRuleColumns(document.processRule),
    name: document.name,
    created_from: document.createdFrom,
    created_by: document.createdBy,
    created_at: document.createdAt,
    updated_at: document.updatedAt,
    tokens: document.tokens,
    word_count: document.wordCount,
    indexing_status: document.indexingStatus,
    is_paused: toFlag(document.isPaused),
    error: document.error,
    enabled: toFlag(document.enabled),
    disabled_at: document.disabledAt,
    disabled_by: document.disabledBy,
    archived: toFlag(document.archived),
    archived_at: document.archivedAt,
    archived_by: document.archivedBy,
    display_status: displayStatus(document),
    doc_form: document.docForm,
    doc_language: document.docLanguage,
    doc_type: document.docType,
    completed_at: document.completedAt,
    indexing_latency: document.indexingLatency,
    summary_index_status: document.summaryIndexStatus,
    need_summary: toFlag(document.needSummary),
  };
}

export function documentFromRow(row: Selectable<DocumentTable>): Document {
  return {
    id: row.id,
    datasetId: row.dataset_id,
    position: row.position,
    dataSourceType: row.data_source_type as DataSourceType,
    uploadFileId: row.upload_file_id,
    processRule: processRuleFromColumns(row.process_rule_id, row.process_rule_mode, row.process_rule_rules),
    name: row.name,
    createdFrom: row.created_from as Document["createdFrom"],
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    tokens: row.tokens,
    wordCount: row.word_count,
    indexingStatus: row.indexing_status as IndexingStatus,
    isPaused: fromFlag(row.is_paused),
    error: row.error,
    enabled: fromFlag(row.enabled),
    disabledAt: row.disabled_at,
    disabledBy: row.disabled_by,
    archived: fromFlag(row.archived),
    archivedAt: row.archived_at,
    archivedBy: row.archived_by,
    docForm: row.doc_form as DocForm,
    docLanguage: row.doc_language,
    docType: row.doc_type,
    completedAt: row.completed_at,
    indexingLatency: row.indexing_latency,
    summaryIndexStatus: row.summary_index_status,
    needSummary: fromFlag(row.need_summary),
  };
}
