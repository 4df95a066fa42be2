import { type Document, type MetadataFieldType, typedMetadataValue } from "@service-api/domain";
import { bytesFromBase64 } from "../format/base64.js";
import type { DocumentInput } from "../format/import-file-schema.js";
import { type RuleHolders, ruleHeldElsewhere } from "./process-rule-holders.js";
import { type FileHolders, fileHeldElsewhere } from "./upload-file-holders.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";
import { segmentWordCount, writeSegments } from "./write-segments.js";

/** A dataset's fields saved by the import, by name. */
export type FieldsByName = Map<string, { id: string; type: MetadataFieldType }>;

export interface DocumentPlace {
  workspaceId: string;
  datasetId: string;
  /** The position a new document the file gives none takes: after the dataset's last, in file order. */
  nextPosition: () => number;
  defaultCreator: string | undefined;
  fields: FieldsByName;
  ruleHolders: RuleHolders;
  fileHolders: FileHolders;
}

export async function writeDocument(
  input: DocumentInput,
  place: DocumentPlace,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary, refuse } = context;
  const documentId = input.id!;
  const existing = await repositories.documents.findInDataset(place.datasetId, documentId);
  const createdBy = input.created_by ?? existing?.createdBy ?? place.defaultCreator!;
  const createdAt = input.created_at ?? existing?.createdAt ?? clock.nowSeconds();
  const rule = input.process_rule!;
  const refused = await repositories.documents.save({
    ...documentFromInput(input, existing),
    id: documentId,
    datasetId: place.datasetId,
    position: input.position ?? existing?.position ?? place.nextPosition(),
    processRule: { id: rule.id!, mode: rule.mode, rules: rule.rules },
    createdBy,
    createdAt,
  });
  if (refused) {
    refuse(at, heldElsewhere(documentId, "another dataset's document"));
    context.onDocument();
    return;
  }
  summary.documents += 1;
  const ruleRefusal = ruleHeldElsewhere(place.ruleHolders, rule.id!, place.datasetId);
  if (ruleRefusal) refuse(`${at}.process_rule`, ruleRefusal);
  if (input.upload_file) {
    const defaults = { createdBy, createdAt };
    await writeUploadFile(input.upload_file, place, defaults, `${at}.upload_file`, context);
  }
  await writeSegments(input, { id: documentId, createdAt }, at, context);
  for (const [fieldName, value] of Object.entries(input.metadata)) {
    const field = place.fields.get(fieldName);
    if (!field) continue; // Refused: the import fails.
    // Checked already: stored as the API stores a value of the field's type (`"042"` → `"42"`).
    const typed = typedMetadataValue(field.type, value);
    if (typed.ok && typed.text !== null)
      await repositories.metadata.setValue(documentId, field.id, typed.text);
  }
  context.onDocument();
}

/**
 * Saves the document's upload file, refused when another workspace's file has its id or a stored
 * document the file leaves as it is names it: a file is one document's.
 */
async function writeUploadFile(
  file: NonNullable<DocumentInput["upload_file"]>,
  place: DocumentPlace,
  defaults: { createdBy: string; createdAt: number },
  at: string,
  { repositories, refuse }: WriteContext,
): Promise<void> {
  const fileId = file.id!;
  const stored = await repositories.documents.findUploadFile(fileId);
  const refused = await repositories.documents.saveUploadFile(place.workspaceId, {
    id: fileId,
    name: file.name,
    size: file.size,
    extension: file.extension,
    mimeType: file.mime_type,
    createdBy: file.created_by ?? stored?.createdBy ?? defaults.createdBy,
    createdAt: file.created_at ?? stored?.createdAt ?? defaults.createdAt,
  });
  const problem = refused
    ? heldElsewhere(fileId, "another workspace's upload file")
    : fileHeldElsewhere(place.fileHolders, fileId);
  if (problem) refuse(at, problem);
  // Checked already: base64 of `size` bytes.
  else if (file.content_base64 !== undefined)
    await repositories.files.put(fileId, bytesFromBase64(file.content_base64));
}

/** What the file says of the document itself; the rest is the caller's (ids, owner, defaults). */
function documentFromInput(
  input: DocumentInput,
  existing: Document | undefined,
): Omit<Document, "id" | "datasetId" | "position" | "processRule" | "createdBy" | "createdAt"> {
  return {
    dataSourceType: input.data_source_type,
    uploadFileId: input.upload_file?.id ?? null,
    name: input.name,
    createdFrom: input.created_from,
    updatedAt: input.updated_at !== undefined ? input.updated_at : (existing?.updatedAt ?? null),
    tokens: input.tokens,
    // The file's segments, not what was stored: the same file gives the same document.
    // Characters as Dify counts them (Python's len: code points), as the chunk statistics do.
    wordCount: input.word_count ?? input.segments.reduce((sum, s) => sum + segmentWordCount(s), 0),
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
    completedAt: completedAtOf(input, existing),
    indexingLatency: input.indexing_latency,
    summaryIndexStatus: input.summary_index_status,
    needSummary: input.need_summary,
    batch: input.batch,
    processingStartedAt: input.processing_started_at,
    parsingCompletedAt: input.parsing_completed_at,
    cleaningCompletedAt: input.cleaning_completed_at,
    splittingCompletedAt: input.splitting_completed_at,
    pausedAt: input.paused_at,
    stoppedAt: input.stopped_at,
  };
}

/** The file's, else the stored one while indexing stays completed: null until it completes. */
function completedAtOf(input: DocumentInput, existing: Document | undefined): number | null {
  if (input.completed_at !== undefined) return input.completed_at;
  return input.indexing_status === "completed" ? (existing?.completedAt ?? null) : null;
}
