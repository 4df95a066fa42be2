/*
 * BM25 as textbook (Robertson & Zaragoza, and Lucene's IDF, which is never negative):
 * score(q, u) = Σ over the query's terms t of qtf(t) · idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen)),
 * idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)). A score is divided by the query's highest possible
 * one, Σ qtf(t) · idf(t) · (k1 + 1), so that it lies in (0, 1) and compares across queries.
 */

/** Which text of a unit a search reads: `full_text_search` its content, `keyword_search` its keywords too. */
export type SearchField = "content" | "content_and_keywords";

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export function idf(units: number, documentFrequency: number): number {
  return Math.log(1 + (units - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** The query's weights (qtf × idf) for the terms some unit holds, and its highest possible score. */
export function bm25Weights(
  queryTerms: Readonly<Record<string, number>>,
  units: number,
  documentFrequencies: ReadonlyMap<string, number>,
  k1 = BM25_K1,
): { weights: Map<string, number>; maxScore: number } {
  const weights = new Map<string, number>();
  let maxScore = 0;
  for (const [term, count] of Object.entries(queryTerms)) {
    const df = documentFrequencies.get(term);
    if (!df) continue;
    const weight = count * idf(units, df);
    weights.set(term, weight);
    maxScore += weight * (k1 + 1);
  }
  return { weights, maxScore };
}

/** One term's part of a unit's score. */
export function termScore(
  weight: number,
  tf: number,
  length: number,
  averageLength: number,
  k1 = BM25_K1,
  b = BM25_B,
): number {
  return (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / averageLength));
}
