import {
  type Dataset,
  type DocForm,
  type Document,
  displayStatus,
  InvalidParamError,
  indexingRuleProblem,
  lookupId,
  NotFoundError,
  type ValidProcessRule,
} from "@service-api/domain";
import { ruleToStore } from "./document-rule.js";
import type { DocumentWriting, QueuedDocument, Upload } from "./new-document.js";
import { ensureDocForm, newBatch, queueDocument, WAITING } from "./text-document.js";

export const DOCUMENT_NOT_AVAILABLE = "Document is not available";

/** An available document's new content or rule, checked by the use case that takes them. */
export interface DocumentUpdate {
  documentId: string;
  /** The body's rule, validated; undefined keeps the document's. */
  requested: ValidProcessRule | undefined;
  /** The body's `doc_form`; undefined takes the dataset's (its first document's), else `text_model`. */
  docForm: DocForm | undefined;
  docLanguage: string | undefined;
  /** The new upload, if any, made once the document's creator is known. */
  upload?(createdBy: string): Upload;
  /** A new name, where there is no new upload to name it. */
  name?: string;
}

/**
 * An available document of `dataset` (checked) updated and queued to be indexed again, in one
 * transaction that takes the dataset first. In Dify's order: `doc_form` against the dataset's, the
 * document (404) and its state (available), then what Dify would fail on while indexing. Its
 * segments stay until the new ones are published; the answer's batch is the document's own.
 */
export function updateDocument(
  writing: DocumentWriting,
  workspaceId: string,
  dataset: Dataset,
  update: DocumentUpdate,
): Promise<QueuedDocument> {
  const { ids, clock } = writing;
  const documentId = lookupId(update.documentId);
  return writing.store.transaction(async (repositories) => {
    await repositories.datasets.lockForUpdate(dataset.id);
    const overview = await repositories.datasets.findOverview(workspaceId, dataset.id);
    const firstDocForm = overview?.firstDocument?.docForm;
    const docForm = update.docForm ?? firstDocForm ?? "text_model";
    const chunkForm = ensureDocForm(docForm, firstDocForm);
    const stored = await repositories.documents.findInDataset(dataset.id, documentId);
    if (!stored) throw new NotFoundError("Document not found.");
    if (displayStatus(stored) !== "available")
      throw new InvalidParamError("document_id", DOCUMENT_NOT_AVAILABLE);
    const rule = update.requested
      ? ruleToStore({ kind: "insert", rule: update.requested }, ids)
      : ruleToStore({ kind: "reuse", rule: stored.processRule }, ids);
    const problem = indexingRuleProblem(rule.typed, {
      docForm: chunkForm,
      maxSegmentationLength: writing.limits.maxSegmentationLength,
    });
    if (problem) throw new InvalidParamError("process_rule", problem);
    const owner = await repositories.workspaces.findOwner(workspaceId);
    // A document from before batches (provisioned, imported) takes one, for its indexing-status.
    const batch = stored.batch ?? newBatch(ids, clock);
    const upload = update.upload?.(owner?.id ?? "");
    const document: Document = {
      ...stored,
      ...WAITING,
      processRule: rule.stored,
      uploadFileId: upload?.file.id ?? stored.uploadFileId,
      name: upload?.file.name ?? update.name ?? stored.name,
      createdFrom: "api",
      updatedAt: clock.nowSeconds(),
      docForm,
      docLanguage: update.docLanguage ?? "English",
      batch,
    };
    if (update.requested && overview)
      await repositories.datasets.save({ ...overview.dataset, processRule: rule.stored });
    await queueDocument(repositories, workspaceId, { document, replaced: stored }, upload, ids, clock);
    return { document, batch, reused: true };
  });
}
