/// <reference path="./wink-porter2-stemmer.d.ts" />
import { eng } from "stopword";
import stem from "wink-porter2-stemmer";

/*
 * The one analyzer of search: what a chunk is indexed as and what a query looks for, on every store.
 * Text is folded (NFKC: full-width forms to their usual ones; then lower case), cut into words by
 * Unicode's word rules (Intl.Segmenter: Chinese and Japanese by ICU's dictionaries, Thai by its own,
 * the rest at spaces and punctuation), English stop words dropped, and Latin-script words stemmed
 * by Porter2 (Snowball English). Lone letters and digits go, as in Lucene's and bm25s' `\w\w+`;
 * a lone ideograph, kana or hangul syllable is a word and stays.
 */

const STOP_WORDS: ReadonlySet<string> = new Set(eng);
const WORDS = new Intl.Segmenter("en", { granularity: "word" });
const LONE_WORD = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;
const LATIN_WORD = /^[\p{Script=Latin}'’]+$/u;
/** Longer runs (a hash, base64) are no words anyone searches for, and would bloat the index's keys. */
export const MAX_TERM_LENGTH = 64;

/** The terms of `text`, in order, repeats kept. */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const { segment, isWordLike } of WORDS.segment(text.normalize("NFKC").toLowerCase())) {
    if (!isWordLike || STOP_WORDS.has(segment)) continue;
    const length = [...segment].length;
    if (length > MAX_TERM_LENGTH || (length === 1 && !LONE_WORD.test(segment))) continue;
    terms.push(LATIN_WORD.test(segment) ? stem(segment.replaceAll("’", "'")) : segment);
  }
  return terms;
}

/** How often each term occurs. */
export type TermCounts = Record<string, number>;

export function countTerms(terms: readonly string[]): TermCounts {
  const counts: TermCounts = Object.create(null);
  for (const term of terms) counts[term] = (counts[term] ?? 0) + 1;
  return counts;
}
