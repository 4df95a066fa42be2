import {
  analyze,
  automaticChildren,
  type ChildChunk,
  type Dataset,
  type Document,
  extractKeywords,
  lookupId,
  NotFoundError,
  ProviderNotInitializeError,
  type Segment,
  type SegmentWrite,
  splitChildChunks,
  validateProcessRule,
} from "@service-api/domain";
import type { Clock, IdGenerator, Repositories, Store, TextHasher } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { DOCUMENT_NOT_FOUND } from "../documents/get-document-file.js";
import { ensureInput } from "../input-checks.js";
import { type DocumentScope, SEGMENT_NOT_FOUND } from "./segment-scope.js";

/** What the chunks API's writes are made with. */
export interface SegmentWriting {
  store: Store;
  ids: IdGenerator;
  clock: Clock;
  hasher: TextHasher;
}

/** What a write works in: its transaction's repositories, the dataset and document, who writes when. */
export interface WriteScope {
  repositories: Repositories;
  dataset: Dataset;
  document: Document;
  write: SegmentWrite;
}

/**
 * Runs `work` in one transaction that holds the dataset (as indexing does, so positions and counts
 * stay right with any number of processes), once the dataset (404, 403), `checkDataset`'s checks
 * and then the document (404) pass under that hold. The checks after those are the caller's, in
 * `work`, in Dify's order.
 */
export async function inSegmentWrite<Result>(
  writing: SegmentWriting,
  scope: DocumentScope,
  work: (scope: WriteScope) => Promise<Result>,
  checkDataset: (dataset: Dataset) => void = () => {},
): Promise<Result> {
  ensureInput(scope);
  return writing.store.transaction(async (repositories) => {
    const dataset = await checkedDataset(repositories.datasets, scope);
    checkDataset(dataset);
    await repositories.datasets.lockForUpdate(dataset.id);
    const document = await repositories.documents.findInDataset(dataset.id, lookupId(scope.documentId));
    if (!document) throw new NotFoundError(DOCUMENT_NOT_FOUND);
    const owner = await repositories.workspaces.findOwner(dataset.workspaceId);
    const write: SegmentWrite = {
      actor: owner?.id ?? "",
      now: writing.clock.nowSeconds(),
      sha256: (text) => writing.hasher.sha256(text),
    };
    return work({ repositories, dataset, document, write });
  });
}

/** An embedding would be made: no model can run here (400 `provider_not_initialize`, as Dify without one). */
export function ensureNoEmbedding(dataset: Dataset): void {
  if (dataset.indexingTechnique === "high_quality") throw new ProviderNotInitializeError();
}

/** The document's segment the path names: 404 "Segment not found." for another document's. */
export async function segmentIn({ repositories, document }: WriteScope, segmentId: string): Promise<Segment> {
  const segment = await repositories.segments.findInDocument(document.id, lookupId(segmentId));
  if (!segment) throw new NotFoundError(SEGMENT_NOT_FOUND);
  return segment;
}

/**
 * A hierarchical document's parent's child chunks, made by the document's own rule (Dify's
 * `generate_child_chunks`, which on a dataset without a model fails instead); none for any other
 * form, or for a stored rule that no longer reads.
 */
export function childrenByRule(
  { document, write }: Pick<WriteScope, "document" | "write">,
  parent: Segment,
  ids: IdGenerator,
): ChildChunk[] {
  if (document.docForm !== "hierarchical_model") return [];
  const rule = validateProcessRule({ mode: document.processRule.mode, rules: document.processRule.rules });
  if (!rule.ok) return [];
  const drafts = splitChildChunks(parent.content, rule.rule.mode, rule.rule.rules);
  return automaticChildren(parent, drafts, () => ({ id: ids.next(), indexNodeId: ids.next() }), write);
}

/**
 * The keywords of a segment whose writer names none (`extractKeywords`): its best terms by TF-IDF
 * over the dataset's index as the transaction reads it.
 */
export async function keywordsFor({ repositories, dataset }: WriteScope, content: string): Promise<string[]> {
  const terms = [...new Set(analyze(content))];
  const stats = await repositories.search.statistics(dataset.id, "content", terms);
  return extractKeywords(content, stats.units, stats.documentFrequencies);
}
