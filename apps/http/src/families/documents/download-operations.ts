import {
  DOCUMENT_NOT_FOUND,
  type DocumentFile,
  NO_UPLOADED_FILE,
  ONLY_UPLOADED_FILES_IN_ZIP,
  UPLOADED_FILE_NOT_FOUND,
} from "@service-api/application";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import { sendZip } from "../../http/zip-response.js";
import { datasetId, TAG } from "./document-writes.js";
import type { DocumentUseCases } from "./index.js";

const ZIP_IDS = "must hold 1 to 100 document ids.";
const downloadZipBody = z.object({
  document_ids: z
    .array(id("A document of the dataset, uploaded as a file."))
    .min(1, ZIP_IDS)
    .max(100, ZIP_IDS)
    .meta({ description: "1 to 100 documents; each file once, names made unique." }),
});

/** A document's file: a signed URL to it, or many in one ZIP. */
export function downloadOperations(useCases: DocumentUseCases): Operation[] {
  const download = defineOperation({
    operationId: "downloadDocument",
    method: "get",
    path: "/datasets/{dataset_id}/documents/{document_id}/download",
    tag: TAG,
    summary: "Get a signed URL to a document's file",
    description:
      "A URL on this server (`FILES_URL`), valid `FILES_ACCESS_TIMEOUT` seconds, that serves the file as uploaded with no API key.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId, document_id: id("The document.") }),
    success: {
      status: 200,
      description: "The signed URL.",
      schema: z.object({
        url: z.string().meta({ description: "`{FILES_URL}/files/{file_id}/file-preview?…`" }),
      }),
      example: {
        url: "http://localhost:5001/files/5c0a2f4e-64b5-4b8e-9a3f-0c6f1e9b2d77/file-preview?timestamp=1764650000&nonce=8b3e26a5c1d04f7e9a0b6c2d3e4f5a6b&sign=rN5DXW3xkVGwGE5MSvptu_BhQVXpMbXWmVJ0ib0LMzI%3D&as_attachment=true",
      },
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      notFound(DOCUMENT_NOT_FOUND),
      notFound(NO_UPLOADED_FILE),
      notFound(UPLOADED_FILE_NOT_FOUND),
    ],
    async handle({ workspaceId, params }) {
      const file = await useCases.getDocumentFile.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
      });
      return { url: await useCases.fileUrls.url(file.id, { asAttachment: true }) };
    },
  });
  const zip = defineOperation({
    operationId: "downloadDocumentsZip",
    method: "post",
    path: "/datasets/{dataset_id}/documents/download-zip",
    tag: TAG,
    summary: "Download documents' files as one ZIP",
    description: "Streamed: one entry per file, as uploaded; equal names made unique (`a (2).txt`).",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    body: downloadZipBody,
    success: {
      status: 200,
      description: "The archive.",
      mediaType: "application/zip",
      schema: z.string().meta({ format: "binary" }),
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      invalid(`document_ids: ${ZIP_IDS}`),
      notFound(DOCUMENT_NOT_FOUND),
      notFound(ONLY_UPLOADED_FILES_IN_ZIP),
      notFound(UPLOADED_FILE_NOT_FOUND),
    ],
    handle({ workspaceId, params, body }) {
      return useCases.getDocumentFiles.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentIds: body.document_ids,
      });
    },
    respond(res, files) {
      sendZip(res, files as DocumentFile[], "documents.zip");
    },
  });
  return [download, zip];
}
