import type { Document, MetadataEntry, ProcessRule, UploadFile } from "@service-api/domain";
import type { DocumentSegments, Repositories } from "@service-api/ports";
import { base64FromBytes } from "../format/base64.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { segmentsOutput } from "./exported-segments.js";

type DatasetOutput = NonNullable<ImportFileInput["workspaces"][number]["datasets"]>[number];
export type DocumentOutput = NonNullable<DatasetOutput["documents"]>[number];

/** How many documents an export reads at a time. */
export interface ExportPaging {
  /** Documents read together, then their values and their segments, each in one read. */
  documentsPerRead: number;
}

export const DEFAULT_EXPORT_PAGING: ExportPaging = { documentsPerRead: 200 };

export const processRuleOutput = ({ id, mode, rules }: ProcessRule) => ({ id, mode, rules });

/**
 * The dataset's documents in `listInDataset`'s order (position, then id), a page at a time, so that
 * a dataset of a million documents is never in memory at once: each page is read from the last
 * document of the one before (`listInDatasetAfter`), then its documents' values and segments (with
 * their child chunks). A file's bytes are read with its document, one document at a time.
 */
export async function* exportedDocuments(
  repositories: Repositories,
  datasetId: string,
  paging: ExportPaging,
): AsyncGenerator<DocumentOutput> {
  const { documents, metadata, segments } = repositories;
  let after: Document | undefined;
  for (;;) {
    const page = await documents.listInDatasetAfter(datasetId, after, paging.documentsPerRead);
    if (page.length === 0) return;
    const ids = page.map((document) => document.id);
    const [values, segmented] = await Promise.all([
      metadata.valuesOfDocuments(ids),
      segments.listOfDocuments(ids),
    ]);
    for (const document of page) {
      const { id } = document;
      const ofDocument = segmented.get(id) ?? { segments: [], children: [] };
      yield await documentOutput(repositories, document, values.get(id) ?? [], ofDocument);
    }
    if (page.length < paging.documentsPerRead) return;
    after = page.at(-1);
  }
}

async function documentOutput(
  repositories: Repositories,
  document: Document,
  values: MetadataEntry[],
  segmented: DocumentSegments,
): Promise<DocumentOutput> {
  const { documents } = repositories;
  const file = document.uploadFileId ? await documents.findUploadFile(document.uploadFileId) : undefined;
  const completed = document.indexingStatus === "completed";
  return {
    id: document.id,
    name: document.name,
    position: document.position,
    data_source_type: document.dataSourceType,
    indexing_status: document.indexingStatus,
    is_paused: document.isPaused,
    enabled: document.enabled,
    // What the API's rules leave (and the import takes): an earlier import stored some states
    // these contradict, which would make the export refused by the import it is for.
    disabled_at: document.enabled ? null : document.disabledAt,
    disabled_by: document.enabled ? null : document.disabledBy,
    archived: document.archived,
    archived_at: document.archived ? document.archivedAt : null,
    archived_by: document.archived ? document.archivedBy : null,
    doc_form: document.docForm,
    doc_language: document.docLanguage,
    doc_type: document.docType,
    created_from: document.createdFrom,
    created_by: document.createdBy,
    created_at: document.createdAt,
    updated_at: document.updatedAt,
    completed_at: completed ? document.completedAt : null,
    indexing_latency: completed ? document.indexingLatency : null,
    tokens: document.tokens,
    word_count: document.wordCount,
    error: document.error,
    summary_index_status: document.summaryIndexStatus,
    need_summary: document.needSummary,
    batch: document.batch,
    processing_started_at: document.processingStartedAt,
    parsing_completed_at: document.parsingCompletedAt,
    cleaning_completed_at: document.cleaningCompletedAt,
    splitting_completed_at: document.splittingCompletedAt,
    paused_at: document.pausedAt,
    stopped_at: document.stoppedAt,
    ...(file && { upload_file: await uploadFileOutput(repositories, file) }),
    process_rule: processRuleOutput(document.processRule),
    metadata: Object.fromEntries(values.map((entry) => [entry.name, entry.value ?? ""])),
    segments: segmentsOutput(segmented),
  };
}

/** The file's row, and its bytes when some are stored. */
async function uploadFileOutput({ files }: Repositories, file: UploadFile) {
  const bytes = await files.get(file.id);
  return {
    id: file.id,
    name: file.name,
    // The bytes' own length where they are stored (the API stores that), which the import checks.
    size: bytes?.length ?? file.size,
    extension: file.extension,
    mime_type: file.mimeType,
    created_by: file.createdBy,
    created_at: file.createdAt,
    ...(bytes && { content_base64: base64FromBytes(bytes) }),
  };
}
