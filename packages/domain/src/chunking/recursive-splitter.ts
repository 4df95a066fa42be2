// Dify's RecursiveCharacterTextSplitter._split_text (core/rag/splitter/text_splitter.py), the
// splitter of `automatic` mode (EnhanceRecursiveCharacterTextSplitter only swaps in `len`) and the
// fallback for long pieces in custom mode.

import { mergeCharacters } from "./character-level.js";
import { type ChunkSize, mergeOrSplitFurther } from "./merge-splits.js";
import { partsEndingWith } from "./pieces.js";

/** The separators `_get_splitter` hands to every splitter, in order of preference. */
export const DIFY_SEPARATORS: readonly string[] = ["\n\n", "。", ". ", " ", ""];

// Dify tests a separator with `re.search(separator, text)`: as a regex. Of its separators only
// ". " holds a metacharacter, so it is found after any character but a newline ("a b" has it).
const ANY_CHARACTER_THEN_SPACE = /[^\n] /;

function occursAsPattern(separator: string, text: string): boolean {
  return separator === ". " ? ANY_CHARACTER_THEN_SPACE.test(text) : text.includes(separator);
}

/**
 * `_split_text_with_regex(text, separator, keep_separator=True)` for a separator that is not "":
 * split on it taken literally, each piece but the last keeping it at its end. Pieces that are ""
 * or "\n" are dropped.
 */
export function* piecesKeepingSeparator(text: string, separator: string): Generator<string> {
  for (const piece of partsEndingWith(text, separator)) {
    if (piece !== "" && piece !== "\n") yield piece;
  }
}

/** The first separator found in the text (or ""), and those after it. */
export function pickSeparator(
  text: string,
  separators: readonly string[],
): { separator: string; remaining: readonly string[] } {
  for (let index = 0; index < separators.length; index++) {
    const separator = separators[index] ?? "";
    if (separator === "") return { separator, remaining: [] };
    if (occursAsPattern(separator, text)) return { separator, remaining: separators.slice(index + 1) };
  }
  return { separator: separators.at(-1) ?? "", remaining: [] };
}

/**
 * `_split_text(text, separators)`: split on the first separator found, merge, recurse on long
 * pieces. The separator "" splits into characters (`mergeCharacters`).
 */
export function splitRecursively(text: string, separators: readonly string[], size: ChunkSize): string[] {
  const { separator, remaining } = pickSeparator(text, separators);
  if (separator === "") return mergeCharacters(text, size);
  const splitFurther =
    remaining.length === 0 ? undefined : (piece: string) => splitRecursively(piece, remaining, size);
  return mergeOrSplitFurther(piecesKeepingSeparator(text, separator), size, splitFurther);
}
