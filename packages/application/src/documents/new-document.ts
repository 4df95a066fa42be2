import {
  type Dataset,
  type DocForm,
  type Document,
  type IndexingTechnique,
  InvalidParamError,
  indexingRuleProblem,
  type ProcessRule,
  resolveProcessRule,
  type UploadFile,
  type ValidProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Repositories, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ruleToStore } from "./document-rule.js";
import { ensureDocForm, newBatch, queueDocument, WAITING } from "./text-document.js";

/** The document as queued, and its batch. */
export interface QueuedDocument {
  document: Document;
  batch: string;
  /** Whether an enabled document of the same name was reused (same id and position). */
  reused: boolean;
}

/** The longest segment allowed (`INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`). */
export interface DocumentLimits {
  maxSegmentationLength: number;
}

/** What a use case needs to write documents. */
export interface DocumentWriting {
  store: Store;
  ids: IdGenerator;
  clock: Clock;
  limits: DocumentLimits;
}

/** An upload as stored: its row and its bytes. */
export interface Upload {
  file: UploadFile;
  bytes: Uint8Array;
}

/** A new document's settings, checked by the use case that takes them. */
export interface DocumentCreation {
  kind: "create-by-text" | "create-by-file";
  /** The body's rule, validated: undefined when it has no `process_rule`, null when it says null. */
  requested: ValidProcessRule | null | undefined;
  /** The body's `doc_form`; undefined takes the dataset's (its first document's), else `text_model`. */
  docForm: DocForm | undefined;
  docLanguage: string | undefined;
  indexingTechnique: IndexingTechnique;
  /** The upload, made once the document's creator is known. */
  upload(createdBy: string): Upload;
}

/**
 * A document created in `dataset` (checked) and queued for indexing, in one transaction that
 * takes the dataset first: the rule resolved (the dataset's latest when the body names none),
 * `doc_form` against the dataset's, what Dify would fail on while indexing refused. An enabled
 * document of the same name is reused: same id and position, a new batch, indexed again.
 */
export function createDocument(
  writing: DocumentWriting,
  scope: { workspaceId: string; datasetId: string },
  dataset: Dataset,
  creation: DocumentCreation,
): Promise<QueuedDocument> {
  return writing.store.transaction(async (repositories) => {
    await repositories.datasets.lockForUpdate(dataset.id);
    const overview = await repositories.datasets.findOverview(scope.workspaceId, dataset.id);
    if (!overview) return checkedDataset(repositories.datasets, scope) as never;
    const resolved = resolveProcessRule({
      kind: creation.kind,
      requested: creation.requested,
      latest: overview.dataset.processRule,
    });
    if (resolved.kind === "refused") throw new InvalidParamError("process_rule", resolved.message);
    if (resolved.kind === "keep") throw new Error("A create always has a rule to use");
    const docForm = creation.docForm ?? overview.firstDocument?.docForm ?? "text_model";
    const chunkForm = ensureDocForm(docForm, overview.firstDocument?.docForm);
    const rule = ruleToStore(resolved, writing.ids);
    const problem = indexingRuleProblem(rule.typed, {
      docForm: chunkForm,
      maxSegmentationLength: writing.limits.maxSegmentationLength,
    });
    if (problem) throw new InvalidParamError("process_rule", problem);
    return queueNew(writing, repositories, scope.workspaceId, overview.dataset, {
      ...creation,
      rule: rule.stored,
      docForm,
    });
  });
}

async function queueNew(
  { ids, clock }: DocumentWriting,
  repositories: Repositories,
  workspaceId: string,
  dataset: Dataset,
  settings: DocumentCreation & { rule: ProcessRule; docForm: DocForm },
): Promise<QueuedDocument> {
  const owner = await repositories.workspaces.findOwner(workspaceId);
  const createdBy = owner?.id ?? "";
  const upload = settings.upload(createdBy);
  const now = clock.nowSeconds();
  const batch = newBatch(ids, clock);
  const reusable = await repositories.documents.findReusable(dataset.id, upload.file.name);
  const document: Document = {
    ...(reusable ?? {
      id: ids.next(),
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
    docLanguage: settings.docLanguage ?? "English",
    batch,
  };
  if (dataset.indexingTechnique === null || dataset.processRule?.id !== settings.rule.id)
    await repositories.datasets.save({
      ...dataset,
      indexingTechnique: dataset.indexingTechnique ?? settings.indexingTechnique,
      processRule: settings.rule,
    });
  await queueDocument(repositories, workspaceId, { document, replaced: reusable }, upload, ids, clock);
  return { document, batch, reused: reusable !== undefined };
}
