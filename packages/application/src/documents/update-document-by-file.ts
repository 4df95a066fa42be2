import {
  admitUpload,
  type DocForm,
  InvalidParamError,
  type SentFile,
  sendsUpload,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import type { FileDocumentLimits } from "./create-document-by-file.js";
import { updateDocument } from "./document-update.js";
import type { QueuedDocument } from "./new-document.js";
import { fileUpload } from "./text-document.js";
import { SOURCE_OR_RULE_REQUIRED } from "./update-document-by-text.js";

export interface UpdateDocumentByFileInput {
  workspaceId: string;
  datasetId: string;
  documentId: string;
  /** The request's files: none named `file` keeps the document's file; two are refused. */
  files: readonly SentFile[];
  /** The `data` part's `process_rule` as sent; undefined or null when it has none. */
  processRule?: unknown;
  docForm?: DocForm;
  docLanguage?: string;
}

/**
 * Update Document by File (and PATCH of a document): a new file, a new rule, or both, for an
 * available document, indexed again in the background. In Dify's order: the dataset, the file
 * when one is sent (one, named, accepted, within the limit), a file or a rule, the rule, then the
 * update's own checks (`updateDocument`). The document takes the new file's name.
 */
export class UpdateDocumentByFile {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly limits: FileDocumentLimits,
  ) {}

  async execute(input: UpdateDocumentByFileInput): Promise<QueuedDocument> {
    ensureInput(input);
    ensureStorableText(input.docLanguage, "doc_language");
    const dataset = await checkedDataset(this.store.repositories.datasets, input);
    // Dify looks at the files only when one is named `file`: another part alone is no new file.
    const admitted = sendsUpload(input.files) ? admitUpload(input.files, this.limits.uploads) : undefined;
    if (admitted) ensureStorableText(admitted.storedName, "file");
    const sentRule = input.processRule ?? undefined;
    if (!admitted && sentRule === undefined)
      throw new InvalidParamError("process_rule", SOURCE_OR_RULE_REQUIRED);
    const checked = sentRule === undefined ? undefined : validateProcessRule(sentRule);
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const { store, ids, clock, limits } = this;
    return updateDocument({ store, ids, clock, limits }, input.workspaceId, dataset, {
      documentId: input.documentId,
      requested: checked?.ok ? checked.rule : undefined,
      docForm: input.docForm,
      docLanguage: input.docLanguage,
      upload: admitted && ((createdBy) => fileUpload(admitted, createdBy, ids, clock)),
    });
  }
}
