import {
  type DocForm,
  type IndexingTechnique,
  InvalidParamError,
  readProcessRule,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import { technique } from "./document-technique.js";
import { createDocument, type DocumentLimits, type QueuedDocument } from "./new-document.js";
import { textUpload } from "./text-document.js";

export interface CreateDocumentByTextInput {
  workspaceId: string;
  datasetId: string;
  name: string;
  text: string;
  /** The body's `process_rule` as sent (any JSON); undefined when the body has none. */
  processRule?: unknown;
  docForm?: DocForm;
  docLanguage?: string;
  indexingTechnique?: IndexingTechnique | null;
}

/**
 * Create Document by Text: the text stored as an uploaded `.txt`, a document queued for indexing
 * in the background (answered before any chunk exists), all in one transaction. In Dify's order:
 * the body's rule read, the technique (required when the dataset has none), the rule checked and
 * resolved, `doc_form` against the dataset's, then what Dify would fail on while indexing. An
 * enabled document of the same name is reused: same id and position, a new batch, indexed again.
 */
export class CreateDocumentByText {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly limits: DocumentLimits,
  ) {}

  async execute(input: CreateDocumentByTextInput): Promise<QueuedDocument> {
    ensureInput(input);
    ensureStorableText(input.name, "name");
    ensureStorableText(input.docLanguage, "doc_language");
    const dataset = await checkedDataset(this.store.repositories.datasets, input);
    // A null rule is no rule here (Dify drops nulls before it looks).
    const sent = input.processRule ?? undefined;
    const read = sent === undefined ? undefined : readProcessRule(sent);
    if (read && !read.ok) throw new InvalidParamError("process_rule", read.message);
    const indexingTechnique = technique(dataset, input.indexingTechnique);
    const checked = sent === undefined ? undefined : validateProcessRule(sent);
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const { store, ids, clock, limits } = this;
    return createDocument({ store, ids, clock, limits }, input, dataset, {
      kind: "create-by-text",
      requested: checked?.ok ? checked.rule : undefined,
      docForm: input.docForm ?? "text_model",
      docLanguage: input.docLanguage,
      indexingTechnique,
      upload: (createdBy) => textUpload(input.name, input.text, createdBy, this.ids, this.clock),
    });
  }
}
