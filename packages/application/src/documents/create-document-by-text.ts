import {
  type Dataset,
  type DocForm,
  type Document,
  type IndexingTechnique,
  InvalidParamError,
  indexingRuleProblem,
  type ProcessRule,
  readProcessRule,
  resolveProcessRule,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Repositories, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput, ensureStorableText } from "../input-checks.js";
import { ruleToStore } from "./document-rule.js";
import { technique } from "./document-technique.js";
import { ensureDocForm, newBatch, queueDocument, textUpload, WAITING } from "./text-document.js";

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

/** The document as queued, and its batch. */
export interface QueuedDocument {
  document: Document;
  batch: string;
  /** Whether an enabled document of the same name was reused (same id and position). */
  reused: boolean;
}

/** The indexing status the longest segment allowed (`INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`). */
export interface DocumentLimits {
  maxSegmentationLength: number;
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
    const read =
      input.processRule === undefined || input.processRule === null
        ? undefined
        : readProcessRule(input.processRule);
    if (read && !read.ok) throw new InvalidParamError("process_rule", read.message);
    const indexingTechnique = technique(dataset, input.indexingTechnique);
    const checked = read ? validateProcessRule(input.processRule) : undefined;
    if (checked && !checked.ok) throw new InvalidParamError("process_rule", checked.message);
    const docForm = input.docForm ?? "text_model";
    return this.store.transaction(async (repositories) => {
      await repositories.datasets.lockForUpdate(dataset.id);
      const overview = await repositories.datasets.findOverview(input.workspaceId, dataset.id);
      if (!overview) return checkedDataset(repositories.datasets, input) as never;
      const resolved = resolveProcessRule({
        kind: "create-by-text",
        requested: checked?.ok ? checked.rule : undefined,
        latest: overview.dataset.processRule,
      });
      if (resolved.kind === "refused") throw new InvalidParamError("process_rule", resolved.message);
      if (resolved.kind === "keep") throw new Error("A create always has a rule to use");
      const chunkForm = ensureDocForm(docForm, overview.firstDocument?.docForm);
      const rule = ruleToStore(resolved, this.ids);
      const problem = indexingRuleProblem(rule.typed, {
        docForm: chunkForm,
        maxSegmentationLength: this.limits.maxSegmentationLength,
      });
      if (problem) throw new InvalidParamError("process_rule", problem);
      return this.#queue(repositories, input, overview.dataset, {
        rule: rule.stored,
        docForm,
        indexingTechnique,
      });
    });
  }

  async #queue(
    repositories: Repositories,
    input: CreateDocumentByTextInput,
    dataset: Dataset,
    settings: { rule: ProcessRule; docForm: DocForm; indexingTechnique: IndexingTechnique },
  ): Promise<QueuedDocument> {
    const owner = await repositories.workspaces.findOwner(input.workspaceId);
    const createdBy = owner?.id ?? "";
    const upload = textUpload(input.name, input.text, createdBy, this.ids, this.clock);
    const now = this.clock.nowSeconds();
    const batch = newBatch(this.ids, this.clock);
    const reusable = await repositories.documents.findReusable(dataset.id, upload.file.name);
    const document: Document = {
      ...(reusable ?? {
        id: this.ids.next(),
        datasetId: dataset.id,
        position: (await repositories.documents.lastPosition(dataset.id)) + 1,
        dataSourceType: "upload_file",
        createdBy,
        createdAt: now,
        tokens: 0,
        wordCount: 0,
        enabled: true,
        disabledAt: null,
        disabledBy: null,
        archived: false,
        archivedAt: null,
        archivedBy: null,
        docType: null,
        summaryIndexStatus: null,
        needSummary: false,
      }),
      ...WAITING,
      uploadFileId: upload.file.id,
      processRule: settings.rule,
      name: upload.file.name,
      createdFrom: "api",
      updatedAt: now,
      docForm: settings.docForm,
      docLanguage: input.docLanguage ?? "English",
      batch,
    };
    if (dataset.indexingTechnique === null || dataset.processRule?.id !== settings.rule.id)
      await repositories.datasets.save({
        ...dataset,
        indexingTechnique: dataset.indexingTechnique ?? settings.indexingTechnique,
        processRule: settings.rule,
      });
    await queueDocument(
      repositories,
      input.workspaceId,
      { document, replaced: reusable },
      upload,
      this.ids,
      this.clock,
    );
    return { document, batch, reused: reusable !== undefined };
  }
}
