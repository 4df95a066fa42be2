import { analyzeWords } from "./analyzer.js";
import { idf } from "./bm25.js";

/** How many keywords a segment gets when its writer names none (Dify's `keyword_number` default). */
export const KEYWORD_COUNT = 10;

/**
 * A segment's keywords when its writer names none: its ten best terms by TF-IDF over its dataset
 * (`units` and each term's `documentFrequencies` from its index), each shown as the word it first
 * appears as (folded, unstemmed); best first, ties in the order they first appear.
 */
export function extractKeywords(
  content: string,
  units: number,
  documentFrequencies: ReadonlyMap<string, number>,
): string[] {
  const found = new Map<string, { word: string; count: number; first: number }>();
  for (const [index, { word, term }] of analyzeWords(content).entries()) {
    const seen = found.get(term);
    if (seen) seen.count += 1;
    else found.set(term, { word, count: 1, first: index });
  }
  return [...found.entries()]
    .map(([term, { word, count, first }]) => ({
      word,
      first,
      score: count * idf(units + 1, Math.min(units + 1, (documentFrequencies.get(term) ?? 0) + 1)),
    }))
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, KEYWORD_COUNT)
    .map(({ word }) => word);
}
