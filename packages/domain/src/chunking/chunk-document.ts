import type { ChunkDraft, ChunkForm } from "./drafts.js";
import { chunkParagraphs } from "./paragraph.js";
import { chunkParentsAndChildren } from "./parent-child.js";
import type { ChunkingMode, StoredRules } from "./rules.js";

/**
 * Dify's chunks of one document, byte for byte (reference-knowledge §2), with one fix: a custom
 * separator keeps its non-ASCII characters (`decodeSeparator`).
 *
 * @param units the extractor's documents in order: a .txt is one, a CSV row, a PDF page, a markdown
 *   section are one each. They are cleaned and split one by one (full-doc joins them).
 * @param mode the process rule's mode: which splitter is used (`automatic` ignores the segmentation).
 * @param rules the stored rules (`AUTOMATIC_RULES` for automatic): cleaning reads their
 *   pre-processing rules. Sizes are taken as given: the caller refuses those out of range.
 * @param form the document's `doc_form`.
 */
export function chunkDocument(
  units: readonly string[],
  mode: ChunkingMode,
  rules: StoredRules,
  form: ChunkForm,
): ChunkDraft[] {
  return form === "text_model"
    ? chunkParagraphs(units, mode, rules)
    : chunkParentsAndChildren(units, mode, rules);
}
