import { parseDisplayStatusFilter, parseDocumentStatusAction } from "@service-api/domain";
import { z } from "zod";
import { id, pagedList, pageQuery, success } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, notFound, PAGED } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { DOCUMENT_EXAMPLE, DOCUMENT_PAGE_EXAMPLE } from "./examples.js";
import type { DocumentUseCases } from "./index.js";
import { presentDocument, presentDocumentListItem } from "./presenters.js";
import { documentListItem, documentView } from "./schemas.js";

const datasetId = id("The knowledge base (dataset).");
const documentId = id("The document.");
const TAG = "Documents";
const DOCUMENT_IDS_REFUSED = "must be a list of document ids.";
const DOCUMENT_ID_REFUSED = "must be a document id.";

export const documentOperations = (useCases: DocumentUseCases) => [
  defineOperation({
    operationId: "listDocuments",
    method: "get",
    path: "/datasets/{dataset_id}/documents",
    tag: TAG,
    summary: "List documents",
    description: "Newest first (`created_at`, then `position` descending, then `id`), read per page.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    query: z.object({
      ...pageQuery,
      keyword: z
        .string()
        .optional()
        .meta({ description: "A substring of the name; ASCII letters in either case." }),
      status: z
        .string()
        .optional()
        .meta({
          description: "A display status, any case (`active` and `enabled` mean `available`).",
          enum: ["queuing", "indexing", "paused", "error", "available", "disabled", "archived"],
        })
        .transform(parseDisplayStatusFilter),
    }),
    success: {
      status: 200,
      description: "A page of documents.",
      schema: pagedList(documentListItem, "The documents."),
      example: DOCUMENT_PAGE_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...PAGED,
      invalid("status: must be one of queuing, indexing, paused, error, available, disabled, archived."),
    ],
    async handle({ workspaceId, params, query }) {
      const page = await useCases.listDocuments.execute({
        workspaceId,
        datasetId: params.dataset_id,
        page: { page: query.page, limit: query.limit },
        keyword: query.keyword,
        status: query.status,
      });
      const { items, hasMore, limit, total } = page;
      return { data: items.map(presentDocumentListItem), has_more: hasMore, limit, total, page: page.page };
    },
  }),
  defineOperation({
    operationId: "getDocumentDetail",
    method: "get",
    path: "/datasets/{dataset_id}/documents/{document_id}",
    tag: TAG,
    summary: "Get a document",
    key: "knowledge",
    params: z.object({ dataset_id: datasetId, document_id: documentId }),
    emptyQueryCounts: ["metadata"],
    query: z.object({
      metadata: z
        .string()
        .optional()
        .meta({ enum: ["all", "only", "without"], description: "What to show (default `all`)." }),
    }),
    success: {
      status: 200,
      description: "The document in the view asked for.",
      schema: documentView,
      example: DOCUMENT_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      notFound("Document not found."),
      { status: 400, code: "invalid_metadata", message: "Invalid metadata value: some" },
    ],
    async handle({ workspaceId, params, query }) {
      return presentDocument(
        await useCases.getDocument.execute({
          workspaceId,
          datasetId: params.dataset_id,
          documentId: params.document_id,
          metadata: query.metadata,
        }),
      );
    },
  }),
  defineOperation({
    operationId: "deleteDocument",
    method: "delete",
    path: "/datasets/{dataset_id}/documents/{document_id}",
    tag: TAG,
    summary: "Delete a document",
    description:
      "With its chunks, metadata values, and file unless another document uses it; counts follow at once.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId, document_id: documentId }),
    success: { status: 204, description: "Deleted." },
    errors: [
      ...ALWAYS,
      ...DATASET,
      notFound("Document Not Exists."),
      { status: 403, code: "archived_document_immutable", message: "The archived document is not editable." },
    ],
    async handle({ workspaceId, params }) {
      await useCases.deleteDocument.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
      });
    },
  }),
  defineOperation({
    operationId: "batchUpdateDocumentStatus",
    method: "patch",
    path: "/datasets/{dataset_id}/documents/status/{action}",
    tag: TAG,
    summary: "Enable, disable, archive or un-archive documents",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({
      dataset_id: datasetId,
      action: z
        .string()
        .transform(parseDocumentStatusAction)
        .meta({
          enum: ["enable", "disable", "archive", "un_archive"],
          description: "The action, case-sensitive.",
        }),
    }),
    body: z.object({
      document_ids: z
        .array(
          z.string({ error: DOCUMENT_ID_REFUSED }).transform((value) => pathId(value)),
          {
            error: DOCUMENT_IDS_REFUSED,
          },
        )
        .meta({ description: "Documents of the dataset; others are skipped, repeats count once." }),
    }),
    success: { status: 200, description: "Done.", schema: success, example: { result: "success" } },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      {
        status: 400,
        code: "invalid_action",
        message: "Invalid action: remove. Must be one of ['enable', 'disable', 'archive', 'un_archive']",
      },
      { status: 400, code: "invalid_action", message: "Document: guide.txt is not completed." },
      invalid(`document_ids: ${DOCUMENT_IDS_REFUSED}`),
      invalid(`document_ids.0: ${DOCUMENT_ID_REFUSED}`),
    ],
    async handle({ workspaceId, params, body }) {
      await useCases.updateDocumentStatus.execute({
        workspaceId,
        datasetId: params.dataset_id,
        action: params.action,
        documentIds: body.document_ids,
      });
      return { result: "success" };
    },
  }),
];
