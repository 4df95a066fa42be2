import {
  admitUpload,
  type DocForm,
  type IndexingTechnique,
  InvalidParamError,
  readProcessRule,
  type SentFile,
  type UploadRules,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import { technique } from "./document-technique.js";
import { updateDocument } from "./document-update.js";
import { createDocument, type DocumentLimits, type QueuedDocument } from "./new-document.js";
import { fileUpload } from "./text-document.js";

/** What documents by file take: the longest segment, and what an upload may be. */
export interface FileDocumentLimits extends DocumentLimits {
  uploads: UploadRules;
}

export interface CreateDocumentByFileInput {
  workspaceId: string;
  datasetId: string;
  /** The request's files, as many as it sent (one is taken; none or two are refused). */
  files: readonly SentFile[];
  /** The `data` part's `process_rule` as sent: undefined when it has no such key, null when it says null. */
  processRule?: unknown;
  docForm?: DocForm;
  docLanguage?: string;
  indexingTechnique?: IndexingTechnique | null;
  /** A document of the dataset this file replaces, as update-by-file would (Dify's create does so). */
  originalDocumentId?: string | null;
}

/**
 * Create Document by File: the file stored as uploaded, a document queued for indexing in the
 * background, all in one transaction. In Dify's order: the dataset, the technique (required when
 * the dataset has none), the file (one, named, of an accepted extension, within the limit), the
 * rule read and checked, a rule required when neither the request nor the dataset has one, then
 * what a create by text checks (`createDocument`). With `original_document_id`, the file replaces
 * that document as an update by file does, after the same first checks.
 */
export class CreateDocumentByFile {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly limits: FileDocumentLimits,
  ) {}

  async execute(input: CreateDocumentByFileInput): Promise<QueuedDocument> {
    ensureInput(input);
    ensureStorableText(input.docLanguage, "doc_language");
    const dataset = await checkedDataset(this.store.repositories.datasets, input);
    const indexingTechnique = technique(dataset, input.indexingTechnique);
    const admitted = admitUpload(input.files, this.limits.uploads);
    ensureStorableText(admitted.storedName, "file");
    const sent = input.processRule;
    const read = sent === undefined || sent === null ? undefined : readProcessRule(sent);
    if (read && !read.ok) throw new InvalidParamError("process_rule", read.message);
    const checked = read ? validateProcessRule(sent) : undefined;
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const { store, ids, clock, limits } = this;
    const upload = (createdBy: string) => fileUpload(admitted, createdBy, ids, clock);
    if (input.originalDocumentId)
      return updateDocument({ store, ids, clock, limits }, input.workspaceId, dataset, {
        documentId: input.originalDocumentId,
        requested: checked?.ok ? checked.rule : undefined,
        docForm: input.docForm,
        docLanguage: input.docLanguage,
        upload,
      });
    return createDocument({ store, ids, clock, limits }, input, dataset, {
      kind: "create-by-file",
      requested: checked?.ok ? checked.rule : (sent as null | undefined),
      docForm: input.docForm,
      docLanguage: input.docLanguage,
      indexingTechnique,
      upload,
    });
  }
}
