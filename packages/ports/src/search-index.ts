import type { DocumentFilter, SearchField } from "@service-api/domain";

/** What BM25 needs of a dataset's index for a query: how many units, how long, how many hold each term. */
export interface SearchStatistics {
  /** Units that hold the field (`content`: those with content). */
  units: number;
  /** Their lengths in terms, summed. */
  totalLength: number;
  /** Of each term asked for, the units holding it in the field; a term none holds is absent. */
  documentFrequencies: Map<string, number>;
}

/** A BM25 query over one dataset's index, its weights worked out (`bm25Weights`). */
export interface ScoringQuery {
  datasetId: string;
  field: SearchField;
  /** Each query term's weight: its IDF times its count in the query. */
  weights: ReadonlyMap<string, number>;
  k1: number;
  b: number;
  averageLength: number;
  topK: number;
  /** Only these documents' segments; undefined for every document's. */
  documentIds?: readonly string[];
  /** Only the segments of documents this metadata filter holds for, applied in the store's query. */
  filter?: DocumentFilter;
}

/** A segment found: its score (its own unit's, or its best child chunk's) and its matching children. */
export interface SegmentHit {
  segmentId: string;
  score: number;
  /** Its child chunks that match, best first (then by position); empty for a segment scored itself. */
  children: { childId: string; score: number }[];
}

/**
 * The search index the segments' writes keep (`SegmentRepository`): its statistics, and the best
 * segments by BM25 among those that can be retrieved (the segment enabled and completed, its
 * document completed, enabled and not archived), best first, ties by position, then id.
 */
export interface SearchIndex {
  statistics(datasetId: string, field: SearchField, terms: readonly string[]): Promise<SearchStatistics>;
  topSegments(query: ScoringQuery): Promise<SegmentHit[]>;
}
