import { lookupId, NotFoundError, type UploadFile } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, FileStore } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
import { DOCUMENT_NOT_FOUND, UPLOADED_FILE_NOT_FOUND } from "./get-document-file.js";

export const ONLY_UPLOADED_FILES_IN_ZIP = "Only uploaded-file documents can be downloaded as ZIP.";

/** A document's file, and how to read its bytes when they are needed (undefined once gone). */
export interface DocumentFile {
  file: UploadFile;
  bytes(): Promise<Uint8Array | undefined>;
}

/**
 * Download Documents as ZIP: documents' files for one archive, in the order asked (an id asked
 * twice, once). Every document must be the dataset's (404 "Document not found.") and have its file
 * (404 otherwise). The bytes are read one file at a time, as the archive is written.
 */
export class GetDocumentFiles {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly files: FileStore,
  ) {}

  async execute(input: {
    workspaceId: string;
    datasetId: string;
    documentIds: readonly string[];
  }): Promise<DocumentFile[]> {
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
