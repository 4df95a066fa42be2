// LangChain's merge step as Dify's TextSplitter has it (core/rag/splitter/text_splitter.py): small
// pieces are packed into chunks of at most `chunkSize` code points, and each chunk after the first
// starts with the tail of the one before (at most `chunkOverlap` code points of whole pieces).

import { pythonLength, pythonStrip } from "./python-text.js";

export interface ChunkSize {
  chunkSize: number;
  chunkOverlap: number;
}

/**
 * `_merge_splits(pieces, separator, lengths)`, fed one piece at a time. The chunk being built is a
 * window over the pieces seen; Python slices its list at every pop, here a start index moves.
 */
function createMerger(separator: string, size: ChunkSize, chunks: string[]) {
  const separatorLength = pythonLength(separator);
  let window: string[] = [];
  let lengths: number[] = [];
  let start = 0;
  let total = 0;
  const count = () => window.length - start;
  // `_join_docs`: joined and stripped; nothing when that is empty.
  const emit = () => {
    const chunk = pythonStrip(window.slice(start).join(separator));
    if (chunk !== "") chunks.push(chunk);
  };
  return {
    add(piece: string, length: number): void {
      if (count() > 0 && total + length + separatorLength > size.chunkSize) {
        emit();
        // Drop pieces from the front while more than the overlap is kept, or while this piece
        // still would not fit.
        while (
          count() > 0 &&
          (total > size.chunkOverlap || (total + length + separatorLength > size.chunkSize && total > 0))
        ) {
          total -= (lengths[start] ?? 0) + (count() > 1 ? separatorLength : 0);
          start++;
        }
        if (start > 1024) {
          window = window.slice(start);
          lengths = lengths.slice(start);
          start = 0;
        }
      }
      window.push(piece);
      lengths.push(length);
      total += length + (count() > 1 ? separatorLength : 0);
    },
    finish(): void {
      emit();
    },
  };
}

/** `_merge_splits` over a whole run of pieces. */
export function mergeSplits(pieces: Iterable<string>, separator: string, size: ChunkSize): string[] {
  const chunks: string[] = [];
  const merger = createMerger(separator, size, chunks);
  for (const piece of pieces) merger.add(piece, pythonLength(piece));
  merger.finish();
  return chunks;
}

/**
 * The loop both of Dify's recursive splitters share: pieces shorter than the chunk size (strictly)
 * are merged; a longer one first flushes those gathered, then is split further, or kept whole when
 * no separator is left. Pieces keep their separators, so they are merged with "".
 */
export function mergeOrSplitFurther(
  pieces: Iterable<string>,
  size: ChunkSize,
  splitFurther: ((piece: string) => string[]) | undefined,
): string[] {
  const chunks: string[] = [];
  let merger: ReturnType<typeof createMerger> | undefined;
  for (const piece of pieces) {
    const length = pythonLength(piece);
    if (length < size.chunkSize) {
      merger ??= createMerger("", size, chunks);
      merger.add(piece, length);
      continue;
    }
    merger?.finish();
    merger = undefined;
    if (splitFurther === undefined) chunks.push(piece);
    else for (const chunk of splitFurther(piece)) chunks.push(chunk);
  }
  merger?.finish();
  return chunks;
}
