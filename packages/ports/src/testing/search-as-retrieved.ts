import { analyze, BM25_B, BM25_K1, bm25Weights, countTerms, type SearchField } from "@service-api/domain";
import type { Repositories } from "../repositories.js";

/** The index's search, as the retrieve use case runs it. */
export async function searchAsRetrieved(
  repositories: Repositories,
  datasetId: string,
  query: string,
  field: SearchField = "content",
  options: { topK?: number; documentIds?: string[] } = {},
) {
  const terms = countTerms(analyze(query));
  const stats = await repositories.search.statistics(datasetId, field, Object.keys(terms));
  const { weights } = bm25Weights(terms, stats.units, stats.documentFrequencies);
  return repositories.search.topSegments({
    datasetId,
    field,
    weights,
    k1: BM25_K1,
    b: BM25_B,
    averageLength: stats.units === 0 ? 1 : stats.totalLength / stats.units,
    topK: options.topK ?? 10,
    documentIds: options.documentIds,
  });
}
