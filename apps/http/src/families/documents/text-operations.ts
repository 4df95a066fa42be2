import {
  DOCUMENT_NOT_AVAILABLE,
  NAME_REQUIRED_WITH_TEXT,
  SOURCE_OR_RULE_REQUIRED,
  TECHNIQUE_REQUIRED,
} from "@service-api/application";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { alias, datasetId, queuedPresenter, RULE_REFUSALS, TAG, uploadTooLarge } from "./document-writes.js";
import { DOCUMENT_AND_BATCH_EXAMPLE, INDEXING_STATUS_EXAMPLE } from "./examples.js";
import type { DocumentUseCases } from "./index.js";
import { createByTextBody, documentAndBatch, indexingStatusList, updateByTextBody } from "./text-schemas.js";

/** A document by text: its text, in a JSON body as large as an upload may be. */
export function textOperations(useCases: DocumentUseCases): Operation[] {
  const uploadLimit = {
    bytes: useCases.uploadLimitBytes,
    tooLarge: uploadTooLarge(useCases.uploadLimitBytes),
  };
  const presentQueued = queuedPresenter(useCases);
  const create = defineOperation({
    operationId: "createDocumentFromText",
    method: "post",
    path: "/datasets/{dataset_id}/document/create-by-text",
    tag: TAG,
    summary: "Create a document from text",
    description:
      "Answered at once, before any chunk exists: the document is indexed in the background (poll its batch's indexing-status). An enabled document of the same name is replaced (same id, new batch).",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    body: createByTextBody,
    bodyLimit: uploadLimit,
    success: {
      status: 200,
      description: "The document, queued, and its batch.",
      schema: documentAndBatch,
      example: DOCUMENT_AND_BATCH_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      uploadLimit.tooLarge,
      invalid(TECHNIQUE_REQUIRED),
      ...RULE_REFUSALS,
    ],
    async handle({ workspaceId, params, body }) {
      const scope = { workspaceId, datasetId: params.dataset_id };
      const settings = {
        processRule: body.process_rule,
        docForm: body.doc_form as never,
        docLanguage: body.doc_language,
      };
      const queued = body.original_document_id
        ? await useCases.updateDocumentByText.execute({
            ...scope,
            ...settings,
            documentId: pathId(body.original_document_id),
            name: body.name,
            text: body.text,
          })
        : await useCases.createDocumentByText.execute({
            ...scope,
            ...settings,
            name: body.name,
            text: body.text,
            indexingTechnique: body.indexing_technique,
          });
      return presentQueued(queued, scope);
    },
  });
  const update = defineOperation({
    operationId: "updateDocumentByText",
    method: "post",
    path: "/datasets/{dataset_id}/documents/{document_id}/update-by-text",
    tag: TAG,
    summary: "Update a document's text",
    description:
      "A new text, a new rule, or both; indexed again in the background, its segments kept until then.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId, document_id: id("The document.") }),
    body: updateByTextBody,
    bodyLimit: uploadLimit,
    success: {
      status: 200,
      description: "The document, queued, and its batch.",
      schema: documentAndBatch,
      example: DOCUMENT_AND_BATCH_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      uploadLimit.tooLarge,
      invalid(NAME_REQUIRED_WITH_TEXT),
      invalid(SOURCE_OR_RULE_REQUIRED),
      invalid(DOCUMENT_NOT_AVAILABLE),
      notFound("Document not found."),
      ...RULE_REFUSALS,
    ],
    async handle({ workspaceId, params, body }) {
      const scope = { workspaceId, datasetId: params.dataset_id };
      const queued = await useCases.updateDocumentByText.execute({
        ...scope,
        documentId: params.document_id,
        name: body.name,
        text: body.text,
        processRule: body.process_rule,
        docForm: body.doc_form as never,
        docLanguage: body.doc_language,
      });
      return presentQueued(queued, scope);
    },
  });
  const status = defineOperation({
    operationId: "getDocumentIndexingStatus",
    method: "get",
    path: "/datasets/{dataset_id}/documents/{batch}/indexing-status",
    tag: TAG,
    summary: "Get a batch's indexing status",
    description: "waiting → parsing → splitting → indexing → completed (or error, with why).",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({
      dataset_id: datasetId,
      batch: z.string().meta({ description: "A batch a create or update answered." }),
    }),
    success: {
      status: 200,
      description: "The batch's documents.",
      schema: indexingStatusList,
      example: INDEXING_STATUS_EXAMPLE,
    },
    errors: [...ALWAYS, ...DATASET, notFound("Documents not found.")],
    async handle({ workspaceId, params }) {
      const found = await useCases.getIndexingStatus.execute({
        workspaceId,
        datasetId: params.dataset_id,
        batch: params.batch,
      });
      return {
        data: found.map(({ document, totalSegments, completedSegments }) => ({
          id: document.id,
          indexing_status: document.isPaused ? "paused" : document.indexingStatus,
          processing_started_at: document.processingStartedAt,
          parsing_completed_at: document.parsingCompletedAt,
          cleaning_completed_at: document.cleaningCompletedAt,
          splitting_completed_at: document.splittingCompletedAt,
          completed_at: document.completedAt,
          paused_at: document.pausedAt,
          error: document.error,
          stopped_at: document.stoppedAt,
          completed_segments: completedSegments,
          total_segments: totalSegments,
        })),
      };
    },
  });
  return [
    create,
    alias(create, "/datasets/{dataset_id}/document/create_by_text"),
    update,
    alias(update, "/datasets/{dataset_id}/documents/{document_id}/update_by_text"),
    status,
  ];
}
