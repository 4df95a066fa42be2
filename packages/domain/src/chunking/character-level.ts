// Both of Dify's splitters end at single characters (the separator ""), where a text can be
// megabytes without a space. Python builds a list of one-character strings; here the characters
// stay in the text and chunks are slices of it, which gives the same chunks: the characters kept
// are consecutive once the line breaks (dropped as pieces equal to "\n") are gone.

import type { ChunkSize } from "./merge-splits.js";
import { pythonStrip } from "./python-text.js";

/** The UTF-16 index after the code point at `index`. */
function nextCodePoint(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return index + 2;
  }
  return index + 1;
}

/**
 * The base splitter's character level: every character is a piece of length 1, merged by
 * `_merge_splits` (stripped chunks, overlap of the last characters). With a chunk size of 1 no
 * piece is shorter than the size, so each character is a chunk of its own, unstripped.
 */
export function mergeCharacters(withLineBreaks: string, size: ChunkSize): string[] {
  const text = withLineBreaks.replaceAll("\n", "");
  const chunks: string[] = [];
  if (size.chunkSize <= 1) {
    for (let index = 0; index < text.length; index = nextCodePoint(text, index)) {
      chunks.push(text.slice(index, nextCodePoint(text, index)));
    }
    return chunks;
  }
  const emit = (start: number, end: number) => {
    const chunk = pythonStrip(text.slice(start, end));
    if (chunk !== "") chunks.push(chunk);
  };
  let start = 0;
  let total = 0;
  for (let index = 0; index < text.length; index = nextCodePoint(text, index)) {
    if (total + 1 > size.chunkSize && total > 0) {
      emit(start, index);
      while (total > 0 && (total > size.chunkOverlap || total + 1 > size.chunkSize)) {
        total--;
        start = nextCodePoint(text, start);
      }
    }
    total++;
  }
  if (total > 0) emit(start, text.length);
  return chunks;
}

/**
 * The fixed splitter's character level: no merge, no strip, but its own overlap. A character joins
 * the chunk while it stays within `size − overlap`; up to `size` it also starts or grows the
 * overlap; past that the chunk is emitted and the next starts with the overlap and this character.
 */
export function splitIntoCharacterWindows(withLineBreaks: string, size: ChunkSize): string[] {
  const text = withLineBreaks.replaceAll("\n", "");
  const chunks: string[] = [];
  let start = 0;
  let length = 0;
  let overlapStart = 0;
  let overlapLength = 0;
  for (let index = 0; index < text.length; index = nextCodePoint(text, index)) {
    if (length + 1 <= size.chunkSize - size.chunkOverlap) {
      length++;
    } else if (length + 1 <= size.chunkSize) {
      if (overlapLength === 0) overlapStart = index;
      length++;
      overlapLength++;
    } else {
      // With a chunk size of 0 this emits "" (dropped later as blank), as Dify does.
      chunks.push(text.slice(start, index));
      start = overlapLength > 0 ? overlapStart : index;
      length = overlapLength + 1;
      overlapLength = 0;
    }
  }
  if (length > 0) chunks.push(text.slice(start));
  return chunks;
}
