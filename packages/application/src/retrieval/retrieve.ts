import {
  analyze,
  BM25_B,
  BM25_K1,
  bm25Weights,
  builtInEntries,
  type ChildChunk,
  countTerms,
  type Dataset,
  type Document,
  type DocumentFilter,
  ensureRetrievalWithoutModel,
  type MetadataEntry,
  type RetrievalModel,
  readMetadataFilter,
  type SearchField,
  type Segment,
} from "@service-api/domain";
import type { Repositories, SegmentHit, Store } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
import { checkedQuery, effectiveModel } from "./retrieval-input.js";

export interface RetrieveInput {
  workspaceId: string;
  datasetId: string;
  query: unknown;
  /** The request's model, parsed; absent or null for the dataset's. */
  retrievalModel?: RetrievalModel | null;
  attachmentIds?: unknown;
}

/** A segment found, with its document, its document's metadata and its matching child chunks. */
export interface RetrievedRecord {
  segment: Segment;
  document: Document;
  /** The document's metadata values, the five built-ins among them while the dataset shows them. */
  metadata: MetadataEntry[];
  /** BM25 over the query's highest possible score: in (0, 1]. */
  score: number;
  children: { child: ChildChunk; score: number }[];
}

export interface Retrieval {
  query: string;
  records: RetrievedRecord[];
}

/**
 * Retrieve (hit testing) without a model: `keyword_search` and `full_text_search` rank the
 * dataset's retrievable segments by BM25 (`SearchIndex`), keyword search reading the segments'
 * keywords too; scores are normalized by the query's highest possible score and kept above the
 * threshold when it is enabled. What needs a model (semantic, hybrid, reranking) is 400
 * `provider_not_initialize`. `metadata_filtering_conditions` (`readMetadataFilter`) narrow the
 * documents in the store's query. The statistics and the scores are read in one snapshot.
 */
export class Retrieve {
  constructor(private readonly store: Store) {}

  async execute(input: RetrieveInput): Promise<Retrieval> {
    ensureInput(input);
    const dataset = await checkedDataset(this.store.repositories.datasets, input);
    const query = checkedQuery(input.query, input.attachmentIds);
    const model = effectiveModel(input.retrievalModel, dataset.retrievalModel);
    ensureRetrievalWithoutModel(model);
    const field: SearchField =
      model.search_method === "full_text_search" ? "content" : "content_and_keywords";
    const terms = countTerms(analyze(query));
    const fields = await this.store.repositories.metadata.listFields(dataset.id);
    const filter = readMetadataFilter(
      model.metadata_filtering_conditions,
      fields,
      dataset.builtInFieldEnabled,
    );
    if (Object.keys(terms).length === 0) return { query, records: [] };
    return this.store.snapshot(async (repositories) => {
      const hits = await this.#search(repositories, dataset, { field, terms, model, filter });
      return { query, records: await recordsOf(repositories, dataset, hits) };
    });
  }

  async #search(
    repositories: Repositories,
    dataset: Dataset,
    {
      field,
      terms,
      model,
      filter,
    }: { field: SearchField; terms: Record<string, number>; model: RetrievalModel; filter?: DocumentFilter },
  ): Promise<SegmentHit[]> {
    const stats = await repositories.search.statistics(dataset.id, field, Object.keys(terms));
    const { weights, maxScore } = bm25Weights(terms, stats.units, stats.documentFrequencies);
    if (weights.size === 0) return [];
    const hits = await repositories.search.topSegments({
      datasetId: dataset.id,
      field,
      weights,
      k1: BM25_K1,
      b: BM25_B,
      averageLength: stats.totalLength / stats.units,
      topK: model.top_k,
      filter,
    });
    const threshold = model.score_threshold_enabled ? (model.score_threshold ?? 0) : undefined;
    const normalized = (score: number) => Math.min(1, score / maxScore);
    return hits
      .map((hit) => ({
        ...hit,
        score: normalized(hit.score),
        children: hit.children.map((child) => ({ ...child, score: normalized(child.score) })),
      }))
      .filter((hit) => threshold === undefined || hit.score >= threshold);
  }
}

/** The hits' segments, documents, metadata and child chunks, in the hits' order. */
async function recordsOf(
  repositories: Repositories,
  dataset: Dataset,
  hits: readonly SegmentHit[],
): Promise<RetrievedRecord[]> {
  if (hits.length === 0) return [];
  const segmentIds = hits.map((hit) => hit.segmentId);
  const segments = new Map((await repositories.segments.listByIds(segmentIds)).map((s) => [s.id, s]));
  const documentIds = [...new Set([...segments.values()].map((segment) => segment.documentId))];
  const documents = new Map(
    (await repositories.documents.findManyInDataset(dataset.id, documentIds)).map((d) => [d.id, d]),
  );
  const metadata = await repositories.metadata.valuesOfDocuments(documentIds);
  const uploaders = dataset.builtInFieldEnabled
    ? await uploaderNames(repositories, dataset.workspaceId, [...documents.values()])
    : undefined;
  // Only a hierarchical segment's hit names child chunks: the others need no read.
  const parents = hits.filter((hit) => hit.children.length > 0).map((hit) => hit.segmentId);
  const children =
    parents.length > 0
      ? await repositories.segments.listChildrenOf(parents)
      : new Map<string, ChildChunk[]>();
  const records: RetrievedRecord[] = [];
  for (const hit of hits) {
    const segment = segments.get(hit.segmentId);
    const document = segment && documents.get(segment.documentId);
    if (!segment || !document) continue;
    const own = new Map((children.get(segment.id) ?? []).map((child) => [child.id, child]));
    records.push({
      segment,
      document,
      metadata: [
        ...(metadata.get(document.id) ?? []),
        ...(uploaders ? builtInEntries(document, uploaders.get(document.createdBy) ?? null) : []),
      ],
      score: hit.score,
      children: hit.children.flatMap(({ childId, score }) => {
        const child = own.get(childId);
        return child ? [{ child, score }] : [];
      }),
    });
  }
  return records;
}

/** The names of the documents' creators, by member id (Dify's built-in `uploader`). */
async function uploaderNames(
  repositories: Repositories,
  workspaceId: string,
  documents: readonly Document[],
): Promise<Map<string, string | null>> {
  const creators = [...new Set(documents.map((document) => document.createdBy))];
  const members = await Promise.all(
    creators.map((id) => repositories.workspaces.findMember(workspaceId, id)),
  );
  return new Map(creators.map((id, index) => [id, members[index]?.name ?? null]));
}
