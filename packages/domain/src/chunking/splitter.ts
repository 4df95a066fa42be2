// Dify's BaseIndexProcessor._get_splitter: which splitter a process rule mode gets.

import { splitOnFixedSeparator } from "./fixed-splitter.js";
import { DIFY_SEPARATORS, splitRecursively } from "./recursive-splitter.js";
import { AUTOMATIC_RULES, type ChunkingMode, type SplitSettings } from "./rules.js";
import { decodeSeparator } from "./separator.js";

export type Splitter = (text: string) => string[];

/**
 * `custom` and `hierarchical`: the fixed-separator splitter on the decoded separator, with the
 * segmentation's size and overlap. `automatic`: the recursive splitter with AUTOMATIC_RULES' 500
 * and 50, whatever segmentation is given. Sizes are not checked here (Dify refuses 50…4000 and an
 * overlap above the size when it builds the splitter; the caller refuses those before).
 */
export function splitterFor(mode: ChunkingMode, settings: SplitSettings): Splitter {
  if (mode === "automatic") {
    const size = {
      chunkSize: AUTOMATIC_RULES.segmentation.max_tokens,
      chunkOverlap: AUTOMATIC_RULES.segmentation.chunk_overlap,
    };
    return (text) => splitRecursively(text, DIFY_SEPARATORS, size);
  }
  const fixedSeparator = decodeSeparator(settings.separator);
  const size = { chunkSize: settings.chunkSize, chunkOverlap: settings.chunkOverlap };
  return (text) => splitOnFixedSeparator(text, fixedSeparator, DIFY_SEPARATORS, size);
}
