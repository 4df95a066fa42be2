import { DOC_FORM_DIFFERS, type QueuedDocument } from "@service-api/application";
import { id } from "../../api/common-schemas.js";
import { invalid, NO_MODEL } from "../../api/errors.js";
import type { Operation } from "../../api/operation.js";
import type { DocumentUseCases } from "./index.js";
import { presentDocumentListItem } from "./presenters.js";

// What the operations that write a document's content share: their tag, their refusals of a
// rule, their answer, and Dify's older paths.

export const TAG = "Documents";
export const datasetId = id("The knowledge base (dataset).");

export const RULE_REFUSALS = [
  invalid("Process rule mode is required"),
  invalid("Process rule rules is required"),
  invalid("Custom segment length should be between 50 and 4000."),
  invalid(DOC_FORM_DIFFERS),
  invalid("doc_form: Invalid doc_form."),
  NO_MODEL,
];

/** The same operation under Dify's older path (underscores), kept for the clients that use it. */
export const alias = (operation: Operation, path: string): Operation => ({
  ...operation,
  operationId: `${operation.operationId}Deprecated`,
  path,
  summary: `${operation.summary} (deprecated path)`,
});

/** The upload limit's 413, as every write of a document's content answers it. */
export const uploadTooLarge = (bytes: number) => ({
  status: 413,
  code: "file_too_large",
  message: `File size exceeded. The limit is ${bytes / 1024 / 1024} MB.`,
});

/** A queued document's answer: `{document, batch}`, the document as the list shows it. */
export const queuedPresenter =
  (useCases: DocumentUseCases) =>
  async (queued: QueuedDocument, scope: { workspaceId: string; datasetId: string }) => ({
    document: presentDocumentListItem(await useCases.documentListing(scope, queued.document)),
    batch: queued.batch,
  });
