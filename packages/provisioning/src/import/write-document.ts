import { type Document, type MetadataFieldType, typedMetadataValue } from "@service-api/domain";
import type { DocumentInput } from "../format/import-file-schema.js";
import type { WriteContext } from "./write-context.js";

export interface DocumentPlace {
  workspaceId: string;
  datasetId: string;
  /** 1-based place in the file, the default position. */
  position: number;
  defaultCreator: string | undefined;
  /** The dataset's fields by name. */
  fields: Map<string, { id: string; type: MetadataFieldType }>;
}

export async function writeDocument(
  input: DocumentInput,
  place: DocumentPlace,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary } = context;
  const documentId = input.id!;
  const existing = await repositories.documents.findInDataset(place.datasetId, documentId);
  const createdBy = input.created_by ?? existing?.createdBy ?? place.defaultCreator!;
  const createdAt = input.created_at ?? existing?.createdAt ?? clock.nowSeconds();
  if (input.upload_file) {
    const file = input.upload_file;
    const stored = await repositories.documents.findUploadFile(file.id!);
    await repositories.documents.saveUploadFile(place.workspaceId, {
      id: file.id!,
      name: file.name,
      size: file.size,
      extension: file.extension,
      mimeType: file.mime_type,
      createdBy: file.created_by ?? stored?.createdBy ?? createdBy,
      createdAt: file.created_at ?? stored?.createdAt ?? createdAt,
    });
  }
  const rule = input.process_rule!;
  const document: Document = {
    id: documentId,
    datasetId: place.datasetId,
    position: input.position ?? place.position,
    dataSourceType: input.data_source_type,
    uploadFileId: input.upload_file?.id ?? null,
    processRule: { id: rule.id!, mode: rule.mode, rules: rule.rules },
    name: input.name,
    createdFrom: input.created_from,
    createdBy,
    createdAt,
    updatedAt: input.updated_at !== undefined ? input.updated_at : (existing?.updatedAt ?? null),
    tokens: input.tokens,
    wordCount:
      input.word_count ?? existing?.wordCount ?? input.segments.reduce((sum, s) => sum + s.content.length, 0),
    indexingStatus: input.indexing_status,
    isPaused: input.is_paused,
    error: input.error,
    enabled: input.enabled,
    disabledAt: input.disabled_at,
    disabledBy: input.disabled_by,
    archived: input.archived,
    archivedAt: input.archived_at,
    archivedBy: input.archived_by,
    docForm: input.doc_form,
    docLanguage: input.doc_language,
    docType: input.doc_type,
    completedAt: input.completed_at !== undefined ? input.completed_at : (existing?.completedAt ?? null),
    indexingLatency: input.indexing_latency,
    summaryIndexStatus: input.summary_index_status,
    needSummary: input.need_summary,
  };
  await repositories.documents.save(document);
  const chunks = input.segments.map((segment, index) => ({
    id: segment.id!,
    documentId,
    position: index + 1,
    content: segment.content,
    hitCount: segment.hit_count,
  }));
  await repositories.documents.replaceChunks(documentId, chunks);
  for (const [fieldName, value] of Object.entries(input.metadata)) {
    // Checked already: stored as the API stores a value of the field's type (`"042"` → `"42"`).
    const field = place.fields.get(fieldName)!;
    const typed = typedMetadataValue(field.type, value);
    if (typed.ok && typed.text !== null)
      await repositories.metadata.setValue(documentId, field.id, typed.text);
  }
  summary.documents += 1;
  context.onDocument();
}
