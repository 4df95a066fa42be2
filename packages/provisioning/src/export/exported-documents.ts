import type { Document, MetadataEntry, ProcessRule } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import type { ImportFileInput } from "../format/import-file-schema.js";

type DatasetOutput = NonNullable<ImportFileInput["workspaces"][number]["datasets"]>[number];
export type DocumentOutput = NonNullable<DatasetOutput["documents"]>[number];

/** How many documents an export reads at a time. */
export interface ExportPaging {
  /** Documents per page of the first pass, which keeps only each one's position and id. */
  orderPage: number;
  /** Documents read together (their values too) in the second pass. */
  documentsPerRead: number;
}

export const DEFAULT_EXPORT_PAGING: ExportPaging = { orderPage: 10_000, documentsPerRead: 200 };

export const processRuleOutput = ({ id, mode, rules }: ProcessRule) => ({ id, mode, rules });

/**
 * The dataset's documents in `listInDataset`'s order (position, then id), a page at a time, so that
 * a dataset of a million documents is never in memory at once. The store pages documents only
 * newest first (`listPage`), so a first pass keeps each one's position and id (about 100 bytes a
 * document) and sorts them; the second reads the documents by id, a page at a time, and the chunks
 * of one document at a time. Within a snapshot both passes read the same documents.
 */
export async function* exportedDocuments(
  repositories: Repositories,
  datasetId: string,
  paging: ExportPaging,
): AsyncGenerator<DocumentOutput> {
  const { documents, metadata } = repositories;
  const ids = await idsInPositionOrder(repositories, datasetId, paging.orderPage);
  for (let start = 0; start < ids.length; start += paging.documentsPerRead) {
    const page = ids.slice(start, start + paging.documentsPerRead);
    const [found, values] = await Promise.all([
      documents.findManyInDataset(datasetId, page),
      metadata.valuesOfDocuments(page),
    ]);
    const byId = new Map(found.map((document) => [document.id, document]));
    for (const id of page) {
      const document = byId.get(id);
      if (document) yield await documentOutput(repositories, document, values.get(id) ?? []);
    }
  }
}

/** The ids of the dataset's documents, by position then id (code point order, as the stores sort). */
async function idsInPositionOrder(
  { documents }: Repositories,
  datasetId: string,
  pageSize: number,
): Promise<string[]> {
  const ids: string[] = [];
  const positions: number[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const { items } = await documents.listPage(datasetId, {}, offset, pageSize);
    for (const { document } of items) {
      ids.push(document.id);
      positions.push(document.position);
    }
    if (items.length < pageSize) break;
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...ids.keys()]
    .sort((a, b) => positions[a]! - positions[b]! || byText(ids[a]!, ids[b]!))
    .map((index) => ids[index]!);
}

async function documentOutput(
  { documents }: Repositories,
  document: Document,
  values: MetadataEntry[],
): Promise<DocumentOutput> {
  const [file, chunks] = await Promise.all([
    document.uploadFileId ? documents.findUploadFile(document.uploadFileId) : undefined,
    documents.listChunks(document.id),
  ]);
  return {
    id: document.id,
    name: document.name,
    position: document.position,
    data_source_type: document.dataSourceType,
    indexing_status: document.indexingStatus,
    is_paused: document.isPaused,
    enabled: document.enabled,
    disabled_at: document.disabledAt,
    disabled_by: document.disabledBy,
    archived: document.archived,
    archived_at: document.archivedAt,
    archived_by: document.archivedBy,
    doc_form: document.docForm,
    doc_language: document.docLanguage,
    doc_type: document.docType,
    created_from: document.createdFrom,
    created_by: document.createdBy,
    created_at: document.createdAt,
    updated_at: document.updatedAt,
    completed_at: document.completedAt,
    indexing_latency: document.indexingLatency,
    tokens: document.tokens,
    word_count: document.wordCount,
    error: document.error,
    summary_index_status: document.summaryIndexStatus,
    need_summary: document.needSummary,
    ...(file && {
      upload_file: {
        id: file.id,
        name: file.name,
        size: file.size,
        extension: file.extension,
        mime_type: file.mimeType,
        created_by: file.createdBy,
        created_at: file.createdAt,
      },
    }),
    process_rule: processRuleOutput(document.processRule),
    metadata: Object.fromEntries(values.map((entry) => [entry.name, entry.value ?? ""])),
    segments: chunks.map(({ id, content, hitCount }) => ({ id, content, hit_count: hitCount })),
  };
}
