// Dify's FixedRecursiveCharacterTextSplitter (core/rag/splitter/fixed_text_splitter.py), the
// splitter of custom and hierarchical rules: split on the fixed separator, keep each part that fits
// as it is, and split a longer part on Dify's separators.

import { splitIntoCharacterWindows } from "./character-level.js";
import { type ChunkSize, mergeOrSplitFurther } from "./merge-splits.js";
import { partsBetween, partsBetweenSpaceRuns, partsEndingWith } from "./pieces.js";
import { pythonLength } from "./python-text.js";
import { splitRecursively } from "./recursive-splitter.js";

/**
 * The pieces of a long part: `" "` splits on runs of spaces and drops them (words come out glued),
 * others stay at the end of each piece. "" is dropped, and "\n" unless it is the separator.
 */
function* piecesOf(text: string, separator: string): Generator<string> {
  const parts = separator === " " ? partsBetweenSpaceRuns(text) : partsEndingWith(text, separator);
  for (const piece of parts) {
    if (piece !== "" && (separator === "\n" || piece !== "\n")) yield piece;
  }
}

/**
 * `recursive_split_text`: the first separator that occurs *literally* (unlike the base splitter's
 * regex test), pieces merged as usual, and long pieces split by the base `_split_text`.
 */
function splitLongPart(text: string, separators: readonly string[], size: ChunkSize): string[] {
  const index = separators.findIndex((separator) => separator === "" || text.includes(separator));
  const separator = index === -1 ? (separators.at(-1) ?? "") : (separators[index] ?? "");
  if (separator === "") return splitIntoCharacterWindows(text, size);
  const remaining = index === -1 ? [] : separators.slice(index + 1);
  const splitFurther =
    remaining.length === 0 ? undefined : (piece: string) => splitRecursively(piece, remaining, size);
  return mergeOrSplitFurther(piecesOf(text, separator), size, splitFurther);
}

/**
 * `split_text`: the text split on the decoded fixed separator (kept out of the chunks; "" means no
 * split). A part of at most `chunkSize` code points is a chunk of its own, never merged with its
 * neighbours and never overlapping them; empty parts are returned too (blank chunks drop later).
 */
export function splitOnFixedSeparator(
  text: string,
  fixedSeparator: string,
  separators: readonly string[],
  size: ChunkSize,
): string[] {
  const parts = fixedSeparator === "" ? [text] : partsBetween(text, fixedSeparator);
  const chunks: string[] = [];
  for (const part of parts) {
    if (pythonLength(part) <= size.chunkSize) chunks.push(part);
    else for (const chunk of splitLongPart(part, separators, size)) chunks.push(chunk);
  }
  return chunks;
}
