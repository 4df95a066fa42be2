import {
  type DocForm,
  type Document,
  displayStatus,
  InvalidParamError,
  indexingRuleProblem,
  lookupId,
  NotFoundError,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import type { DocumentLimits, QueuedDocument } from "./create-document-by-text.js";
import { ruleToStore } from "./document-rule.js";
import { ensureDocForm, newBatch, queueDocument, textUpload, WAITING } from "./text-document.js";

export interface UpdateDocumentByTextInput {
  workspaceId: string;
  datasetId: string;
  documentId: string;
  name?: string | null;
  text?: string | null;
  /** The body's `process_rule` as sent (any JSON); undefined or null when the body has none. */
  processRule?: unknown;
  docForm?: DocForm;
  docLanguage?: string;
}

export const NAME_REQUIRED_WITH_TEXT = "name is required when text is provided.";
export const SOURCE_OR_RULE_REQUIRED = "Data source or Process rule is required";
export const DOCUMENT_NOT_AVAILABLE = "Document is not available";

/**
 * Update Document by Text: a new text, a new rule, or both, for an available document, which is
 * indexed again in the background (its segments stay until the new ones are published). In
 * Dify's order: the body (a text needs its name), a text or a rule, the rule, `doc_form` against
 * the dataset's, then the document (404) and its state (available). The answer's batch is the
 * document's own.
 */
export class UpdateDocumentByText {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly limits: DocumentLimits,
  ) {}

  async execute(input: UpdateDocumentByTextInput): Promise<QueuedDocument> {
    ensureInput(input);
    ensureStorableText(input.name, "name");
    ensureStorableText(input.docLanguage, "doc_language");
    const dataset = await checkedDataset(this.store.repositories.datasets, input);
    const text = input.text ?? undefined;
    if (text !== undefined && (input.name === undefined || input.name === null))
      throw new InvalidParamError("name", NAME_REQUIRED_WITH_TEXT);
    const sentRule = input.processRule ?? undefined;
    if (text === undefined && sentRule === undefined)
      throw new InvalidParamError("process_rule", SOURCE_OR_RULE_REQUIRED);
    const checked = sentRule === undefined ? undefined : validateProcessRule(sentRule);
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const docForm = input.docForm ?? "text_model";
    const documentId = lookupId(input.documentId);
    return this.store.transaction(async (repositories) => {
      await repositories.datasets.lockForUpdate(dataset.id);
      const overview = await repositories.datasets.findOverview(input.workspaceId, dataset.id);
      const chunkForm = ensureDocForm(docForm, overview?.firstDocument?.docForm);
      const stored = await repositories.documents.findInDataset(dataset.id, documentId);
      if (!stored) throw new NotFoundError("Document not found.");
      if (displayStatus(stored) !== "available")
        throw new InvalidParamError("document_id", DOCUMENT_NOT_AVAILABLE);
      const rule = checked?.ok
        ? ruleToStore({ kind: "insert", rule: checked.rule }, this.ids)
        : ruleToStore({ kind: "reuse", rule: stored.processRule }, this.ids);
      const problem = indexingRuleProblem(rule.typed, {
        docForm: chunkForm,
        maxSegmentationLength: this.limits.maxSegmentationLength,
      });
      if (problem) throw new InvalidParamError("process_rule", problem);
      const owner = await repositories.workspaces.findOwner(input.workspaceId);
      // A document from before batches (provisioned, imported) takes one, for its indexing-status.
      const batch = stored.batch ?? newBatch(this.ids, this.clock);
      const upload =
        text === undefined ? undefined : textUpload(input.name!, text, owner?.id ?? "", this.ids, this.clock);
      const document: Document = {
        ...stored,
        ...WAITING,
        processRule: rule.stored,
        uploadFileId: upload?.file.id ?? stored.uploadFileId,
        name: upload?.file.name ?? input.name ?? stored.name,
        createdFrom: "api",
        updatedAt: this.clock.nowSeconds(),
        docForm,
        docLanguage: input.docLanguage ?? "English",
        batch,
      };
      if (checked?.ok && overview)
        await repositories.datasets.save({ ...overview.dataset, processRule: rule.stored });
      await queueDocument(
        repositories,
        input.workspaceId,
        { document, replaced: stored },
        upload,
        this.ids,
        this.clock,
      );
      return { document, batch, reused: true };
    });
  }
}
