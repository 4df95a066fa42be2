import { lookupId, NotFoundError, type UploadFile } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

export const DOCUMENT_NOT_FOUND = "Document not found.";
export const NO_UPLOADED_FILE = "Document does not have an uploaded file to download.";
export const UPLOADED_FILE_NOT_FOUND = "Uploaded file not found.";

/**
 * Download Document: a document's uploaded file, to sign a URL for (Dify's `DocumentDownloadApi`,
 * in its order): the document (404 "Document not found."), its file (404 when it has none, or the
 * file's row is gone).
 */
export class GetDocumentFile {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
  ) {}

  async execute(input: { workspaceId: string; datasetId: string; documentId: string }): Promise<UploadFile> {
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
}
