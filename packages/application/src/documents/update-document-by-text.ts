import { type DocForm, InvalidParamError, validateProcessRule } from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import { updateDocument } from "./document-update.js";
import type { DocumentLimits, QueuedDocument } from "./new-document.js";
import { textUpload } from "./text-document.js";

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

/**
 * Update Document by Text: a new text, a new rule, or both, for an available document, which is
 * indexed again in the background (its segments stay until the new ones are published). In
 * Dify's order: the body (a text needs its name), a text or a rule, the rule, then the update's
 * own checks (`updateDocument`).
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
    const name = input.name ?? undefined;
    if (text !== undefined && name === undefined)
      throw new InvalidParamError("name", NAME_REQUIRED_WITH_TEXT);
    const sentRule = input.processRule ?? undefined;
    if (text === undefined && sentRule === undefined)
      throw new InvalidParamError("process_rule", SOURCE_OR_RULE_REQUIRED);
    const checked = sentRule === undefined ? undefined : validateProcessRule(sentRule);
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const { store, ids, clock, limits } = this;
    return updateDocument({ store, ids, clock, limits }, input.workspaceId, dataset, {
      documentId: input.documentId,
      requested: checked?.ok ? checked.rule : undefined,
      docForm: input.docForm ?? "text_model",
      docLanguage: input.docLanguage,
      name,
      upload: text === undefined ? undefined : (createdBy) => textUpload(name!, text, createdBy, ids, clock),
    });
  }
}
