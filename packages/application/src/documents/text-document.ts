import {
  type AdmittedFile,
  batchId,
  type ChunkForm,
  type DocForm,
  type Document,
  InvalidParamError,
  ProviderNotInitializeError,
  sixDigitsOf,
  type UploadFile,
  uploadMimeType,
  uploadNameOf,
} from "@service-api/domain";
import type { Clock, IdGenerator, Repositories } from "@service-api/ports";

export const DOC_FORMS: readonly DocForm[] = ["text_model", "hierarchical_model", "qa_model"];
export const DOC_FORM_DIFFERS = "doc_form is different from the dataset doc_form.";

/**
 * The `doc_form` a dataset's documents share, fixed by its first document (Dify's `check_doc_form`),
 * as the chunker takes it: question-and-answer pairs are written by a language model, none here.
 */
export function ensureDocForm(docForm: DocForm, firstDocForm: DocForm | undefined): ChunkForm {
  if (firstDocForm !== undefined && firstDocForm !== docForm)
    throw new InvalidParamError("doc_form", DOC_FORM_DIFFERS);
  if (docForm === "qa_model") throw new ProviderNotInitializeError();
  return docForm;
}

/** A new batch, as Dify makes one: the time, then six digits of randomness (from the id generator). */
export function newBatch(ids: IdGenerator, clock: Clock): string {
  return batchId(clock.nowSeconds(), sixDigitsOf(Number.parseInt(ids.next().slice(-8), 16)));
}

/** A text as Dify stores it: an uploaded `.txt` named by the first 200 code points of its name. */
export function textUpload(name: string, text: string, createdBy: string, ids: IdGenerator, clock: Clock) {
  const bytes = new TextEncoder().encode(text);
  const file: UploadFile = {
    id: ids.next(),
    name: uploadNameOf(name),
    size: bytes.length,
    extension: "txt",
    mimeType: "text/plain",
    createdBy,
    createdAt: clock.nowSeconds(),
  };
  return { file, bytes };
}

/** An uploaded file as stored: its name past the gate, its extension, its type. */
export function fileUpload(admitted: AdmittedFile, createdBy: string, ids: IdGenerator, clock: Clock) {
  const file: UploadFile = {
    id: ids.next(),
    name: admitted.storedName,
    size: admitted.bytes.byteLength,
    extension: admitted.extension,
    mimeType: uploadMimeType(admitted.mimeType, admitted.extension),
    createdBy,
    createdAt: clock.nowSeconds(),
  };
  return { file, bytes: admitted.bytes };
}

/** What a document queued for indexing starts as: waiting, every step's time unset. */
export const WAITING = {
  indexingStatus: "waiting",
  error: null,
  completedAt: null,
  indexingLatency: null,
  processingStartedAt: null,
  parsingCompletedAt: null,
  cleaningCompletedAt: null,
  splittingCompletedAt: null,
  pausedAt: null,
  stoppedAt: null,
  isPaused: false,
} as const satisfies Partial<Document>;

/**
 * A document's new text written (if it has one), the document queued with a new indexing job, in
 * the caller's transaction. The file of the version it replaces goes, when no document names it.
 */
export async function queueDocument(
  repositories: Repositories,
  workspaceId: string,
  queued: { document: Document; replaced: Document | undefined },
  upload: { file: UploadFile; bytes: Uint8Array } | undefined,
  ids: IdGenerator,
  clock: Clock,
): Promise<void> {
  const { document, replaced } = queued;
  if (upload) {
    await repositories.documents.saveUploadFile(workspaceId, upload.file);
    await repositories.files.put(upload.file.id, upload.bytes);
  }
  const jobId = ids.next();
  await repositories.documents.queueForIndexing(document, jobId);
  const replacedFile = replaced?.uploadFileId;
  if (replacedFile && replacedFile !== document.uploadFileId)
    await repositories.documents.deleteUnusedUploadFile(replacedFile);
  const now = clock.nowMilliseconds();
  await repositories.jobs.enqueue({
    id: jobId,
    kind: "index_document",
    subjectId: document.id,
    runAfter: now,
    createdAt: now,
  });
}
