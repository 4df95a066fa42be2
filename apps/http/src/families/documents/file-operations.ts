import {
  DOCUMENT_NOT_AVAILABLE,
  SOURCE_OR_RULE_REQUIRED,
  TECHNIQUE_REQUIRED,
} from "@service-api/application";
import {
  BlockedFileExtensionError,
  FilenameNotExistsError,
  NoFileUploadedError,
  TooManyFilesError,
  UnsupportedFileTypeError,
} from "@service-api/domain";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation, type ErrorCase, type Operation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { alias, datasetId, queuedPresenter, RULE_REFUSALS, TAG, uploadTooLarge } from "./document-writes.js";
import { DOCUMENT_AND_BATCH_EXAMPLE } from "./examples.js";
import type { DocumentUseCases } from "./index.js";
import {
  createByFileData,
  createByFileForm,
  documentAndBatch,
  updateByFileData,
  updateByFileForm,
} from "./text-schemas.js";

const refusal = (error: { code: string; message: string }, status: number): ErrorCase => ({
  status,
  code: error.code,
  message: error.message,
});

/** How an upload is refused (after its `data`), in the order it is checked. */
const FILE_REFUSALS = [
  refusal(new NoFileUploadedError(), 400),
  refusal(new TooManyFilesError(), 400),
  refusal(new FilenameNotExistsError(), 400),
  invalid("Filename contains invalid characters"),
  refusal(new BlockedFileExtensionError(), 400),
  refusal(new UnsupportedFileTypeError(), 415),
  invalid("data: must be a JSON object."),
];

/** A document by file: a `multipart/form-data` upload, its settings in the `data` field. */
export function fileOperations(useCases: DocumentUseCases): Operation[] {
  const tooLarge = uploadTooLarge(useCases.uploadLimitBytes);
  const form = (fields: z.ZodType) => ({ fileBytes: useCases.uploadLimitBytes, tooLarge, fields });
  const presentQueued = queuedPresenter(useCases);
  const success = {
    status: 200 as const,
    description: "The document, queued, and its batch.",
    schema: documentAndBatch,
    example: DOCUMENT_AND_BATCH_EXAMPLE,
  };
  const create = defineOperation({
    operationId: "createDocumentFromFile",
    method: "post",
    path: "/datasets/{dataset_id}/document/create-by-file",
    tag: TAG,
    summary: "Create a document from a file",
    description:
      "A `multipart/form-data` body: the `file` and, optionally, `data` (a JSON object of settings). Answered at once; the file is read and indexed in the background (poll its batch's indexing-status). An enabled document of the same name is replaced.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    form: form(createByFileForm),
    body: createByFileData,
    success,
    errors: [
      ...ALWAYS,
      ...DATASET,
      invalid(TECHNIQUE_REQUIRED),
      ...FILE_REFUSALS,
      tooLarge,
      invalid("process_rule is required."),
      ...RULE_REFUSALS,
    ],
    async handle({ workspaceId, params, body, files }) {
      const scope = { workspaceId, datasetId: params.dataset_id };
      const settings = {
        files,
        processRule: body.process_rule,
        docForm: body.doc_form as never,
        docLanguage: body.doc_language,
      };
      const queued = await useCases.createDocumentByFile.execute({
        ...scope,
        ...settings,
        indexingTechnique: body.indexing_technique,
        originalDocumentId: body.original_document_id ? pathId(body.original_document_id) : undefined,
      });
      return presentQueued(queued, scope);
    },
  });
  const update = (method: "post" | "patch", path: string, operationId: string, summary: string) =>
    defineOperation({
      operationId,
      method,
      path,
      tag: TAG,
      summary,
      description:
        "A new `file`, a new rule in `data`, or both (`multipart/form-data`); indexed again in the background, its segments kept until then. The document takes the file's name.",
      key: "knowledge",
      dataset: "in-use-case",
      params: z.object({ dataset_id: datasetId, document_id: id("The document.") }),
      form: form(updateByFileForm),
      body: updateByFileData,
      success,
      errors: [
        ...ALWAYS,
        ...DATASET,
        ...FILE_REFUSALS.slice(1),
        tooLarge,
        invalid(SOURCE_OR_RULE_REQUIRED),
        invalid(DOCUMENT_NOT_AVAILABLE),
        notFound("Document not found."),
        ...RULE_REFUSALS,
      ],
      async handle({ workspaceId, params, body, files }) {
        const scope = { workspaceId, datasetId: params.dataset_id };
        const queued = await useCases.updateDocumentByFile.execute({
          ...scope,
          documentId: params.document_id,
          files,
          processRule: body.process_rule,
          docForm: body.doc_form as never,
          docLanguage: body.doc_language,
        });
        return presentQueued(queued, scope);
      },
    });
  const byFile = update(
    "post",
    "/datasets/{dataset_id}/documents/{document_id}/update-by-file",
    "updateDocumentByFile",
    "Update a document's file",
  );
  return [
    create,
    alias(create, "/datasets/{dataset_id}/document/create_by_file"),
    update("patch", "/datasets/{dataset_id}/documents/{document_id}", "updateDocument", "Update a document"),
    byFile,
    alias(byFile, "/datasets/{dataset_id}/documents/{document_id}/update_by_file"),
  ];
}
