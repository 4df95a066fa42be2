import { lookupId, NotFoundError, type UploadFile } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, FileStore } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

export const DOCUMENT_NOT_FOUND = "Document not found.";
export const NO_UPLOADED_FILE = "Document does not have an uploaded file to download.";
export const UPLOADED_FILE_NOT_FOUND = "Uploaded file not found.";
export const ONLY_UPLOADED_FILES_IN_ZIP = "Only uploaded-file documents can be downloaded as ZIP.";

/** A document's file, and how to read its bytes when they are needed (undefined once gone). */
export interface DocumentFile {
  file: UploadFile;
  bytes(): Promise<Uint8Array | undefined>;
}

interface Scope {
  workspaceId: string;
  datasetId: string;
}

/**
 * A document's uploaded file, to download: Dify's `DocumentDownloadApi` and its ZIP, in its order.
 * The document (404 "Document not found."), its file (404 when it has none, or the row is gone).
 */
export class GetDocumentFiles {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly files: FileStore,
  ) {}

  /** One document's file: what a signed URL is made for. */
  async one(input: Scope & { documentId: string }): Promise<UploadFile> {
    ensureInput(input);
    const dataset = await checkedDataset(this.datasets, input);
    const document = await this.documents.findInDataset(dataset.id, lookupId(input.documentId));
    if (!document) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    if (document.dataSourceType !== "upload_file" || !document.uploadFileId)
      throw new NotFoundError(NO_UPLOADED_FILE);
    const file = await this.documents.findUploadFile(document.uploadFileId);
    if (!file) throw new NotFoundError(UPLOADED_FILE_NOT_FOUND);
    return file;
  }

  /**
   * Documents' files for one archive, in the order asked (an id asked twice, once): every document
   * must be the dataset's (404 "Document not found.") and have its file (404 otherwise). The bytes
   * are read one file at a time, as the archive is written.
   */
  async many(input: Scope & { documentIds: readonly string[] }): Promise<DocumentFile[]> {
    ensureInput(input);
    const dataset = await checkedDataset(this.datasets, input);
    const ids = [...new Set(input.documentIds.map(lookupId))];
    const found = new Map(
      (await this.documents.findManyInDataset(dataset.id, ids)).map((document) => [document.id, document]),
    );
    const documents = ids.map((id) => found.get(id));
    if (documents.some((document) => document === undefined)) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    const files: DocumentFile[] = [];
    for (const document of documents) {
      if (document!.dataSourceType !== "upload_file" || !document!.uploadFileId)
        throw new NotFoundError(ONLY_UPLOADED_FILES_IN_ZIP);
      const file = await this.documents.findUploadFile(document!.uploadFileId);
      if (!file) throw new NotFoundError(UPLOADED_FILE_NOT_FOUND);
      files.push({ file, bytes: () => this.files.get(file.id) });
    }
    return files;
  }
}

/**
 * The file a signed URL names, with its bytes, while a document of a dataset in service names it
 * (a deleted document's or dataset's file is not found). The signature is the caller's to check.
 */
export class ReadSignedFile {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly files: FileStore,
  ) {}

  async execute(fileId: string): Promise<{ file: UploadFile; bytes: Uint8Array }> {
    const file = await this.documents.findServedUploadFile(lookupId(fileId));
    const bytes = file && (await this.files.get(file.id));
    if (!file || !bytes) throw new NotFoundError("The requested file was not found.");
    return { file, bytes };
  }
}
