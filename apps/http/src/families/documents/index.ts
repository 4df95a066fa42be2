import { READABLE_EXTENSIONS } from "@service-api/adapters-extractors";
import {
  CreateDocumentByFile,
  CreateDocumentByText,
  DeleteDocument,
  type DocumentListItem,
  documentListingOf,
  GetDocument,
  GetDocumentFile,
  GetDocumentFiles,
  GetIndexingStatus,
  ListDocuments,
  ReadSignedFile,
  UpdateDocumentByFile,
  UpdateDocumentByText,
  UpdateDocumentStatus,
} from "@service-api/application";
import { type Document, ensureDatasetServesApi } from "@service-api/domain";
import type { InjectionToken } from "tsyringe";
import { notifying } from "../../background/job-signal.js";
import { SignedFileUrls } from "../../files/signed-file-urls.js";
import { defineFamily } from "../family.js";
import { downloadOperations } from "./download-operations.js";
import { fileOperations } from "./file-operations.js";
import { documentOperations } from "./operations.js";
import { textOperations } from "./text-operations.js";

export interface DocumentUseCases {
  getDocument: GetDocument;
  listDocuments: ListDocuments;
  deleteDocument: DeleteDocument;
  updateDocumentStatus: UpdateDocumentStatus;
  createDocumentByText: CreateDocumentByText;
  updateDocumentByText: UpdateDocumentByText;
  createDocumentByFile: CreateDocumentByFile;
  updateDocumentByFile: UpdateDocumentByFile;
  getIndexingStatus: GetIndexingStatus;
  getDocumentFile: GetDocumentFile;
  getDocumentFiles: GetDocumentFiles;
  readSignedFile: ReadSignedFile;
  /** Signs and checks file URLs (`SECRET_KEY`, `FILES_URL`, `FILES_ACCESS_TIMEOUT`). */
  fileUrls: SignedFileUrls;
  /** A document as the list shows it, read after a create or update queued it. */
  documentListing(
    scope: { workspaceId: string; datasetId: string },
    document: Document,
  ): Promise<DocumentListItem>;
  /** The largest text or file a request may carry (`UPLOAD_FILE_SIZE_LIMIT_MB`), in bytes. */
  uploadLimitBytes: number;
}

/** Documents of a knowledge base: create them by text or file, read, list, delete, change their status, index. */
export const documentsFamily = defineFamily({
  name: "documents",
  token: Symbol("DocumentUseCases") as InjectionToken<DocumentUseCases>,
  useCases: ({ store, repositories, clock, ids, config, jobSignal }) => {
    const { documents, datasets } = repositories;
    const limits = { maxSegmentationLength: config.maxSegmentationLength };
    const fileLimits = {
      ...limits,
      uploads: {
        accepted: READABLE_EXTENSIONS,
        blocked: config.blockedUploadExtensions,
        maxBytes: config.uploadLimitBytes,
      },
    };
    return {
      getDocument: new GetDocument(documents),
      listDocuments: new ListDocuments(documents, datasets),
      deleteDocument: new DeleteDocument(documents, datasets),
      updateDocumentStatus: new UpdateDocumentStatus(store, clock),
      createDocumentByText: notifying(new CreateDocumentByText(store, ids, clock, limits), jobSignal),
      updateDocumentByText: notifying(new UpdateDocumentByText(store, ids, clock, limits), jobSignal),
      createDocumentByFile: notifying(new CreateDocumentByFile(store, ids, clock, fileLimits), jobSignal),
      updateDocumentByFile: notifying(new UpdateDocumentByFile(store, ids, clock, fileLimits), jobSignal),
      getIndexingStatus: new GetIndexingStatus(datasets, documents),
      getDocumentFile: new GetDocumentFile(datasets, documents),
      getDocumentFiles: new GetDocumentFiles(datasets, documents, repositories.files),
      readSignedFile: new ReadSignedFile(documents, repositories.files),
      fileUrls: new SignedFileUrls({
        secretKey: config.secretKey,
        secrets: repositories.secrets,
        filesUrl: config.filesUrl,
        timeoutSeconds: config.filesAccessTimeoutSeconds,
        clock,
      }),
      documentListing: async ({ workspaceId, datasetId }, document) => {
        const dataset = ensureDatasetServesApi(await datasets.findInWorkspace(workspaceId, datasetId));
        return documentListingOf(repositories, dataset, document);
      },
      uploadLimitBytes: config.uploadLimitBytes,
    };
  },
  operations: (useCases) => [
    ...documentOperations(useCases),
    ...textOperations(useCases),
    ...fileOperations(useCases),
    ...downloadOperations(useCases),
  ],
});
