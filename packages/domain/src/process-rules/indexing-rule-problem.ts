// What Dify accepts and then fails while indexing (the document ends `error`), or indexes into no
// chunks at all: refused here before anything is stored (knowledge-content §3.1, Decision), with
// Dify's own message. The checks follow Dify's index processors in their order.

import type { ChunkForm } from "../chunking/drafts.js";
import type { ChunkingMode, StoredRules } from "../chunking/rules.js";
import { DEFAULT_MAX_SEGMENTATION_LENGTH, MIN_SEGMENTATION_LENGTH } from "./constants.js";
import { PROCESS_RULE_MESSAGES as MESSAGES, overlapRefused, segmentLengthRefused } from "./messages.js";

export interface IndexingRuleContext {
  /** The document's `doc_form`: which index processor Dify runs. */
  docForm: ChunkForm;
  /** `INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`; 4000 unless configured. */
  maxSegmentationLength?: number;
}

interface Sizes {
  max_tokens: number;
  chunk_overlap: number;
}

/** `_get_splitter` checks the length, then `TextSplitter.__init__` the overlap. */
function sizeProblem(sizes: Sizes, maxSegmentationLength: number): string | undefined {
  if (sizes.max_tokens < MIN_SEGMENTATION_LENGTH || sizes.max_tokens > maxSegmentationLength)
    return segmentLengthRefused(maxSegmentationLength);
  if (sizes.chunk_overlap > sizes.max_tokens) return overlapRefused(sizes.chunk_overlap, sizes.max_tokens);
  return undefined;
}

/**
 * Why Dify could not index a document of `docForm` with `rule` (the rule it uses: given, or the
 * dataset's latest), or undefined. Sizes are checked only where Dify builds a custom splitter
 * (`automatic` always splits at 500 with overlap 50):
 * - `text_model` (ParagraphIndexProcessor): the segmentation's length (50…limit), then its overlap
 *   (at most the length). Child chunks are never made, so `subchunk_segmentation` is not needed.
 * - `hierarchical_model` (ParentChildIndexProcessor): without `parent_mode` Dify makes no chunks:
 *   refused. `paragraph` checks the parents' segmentation as above; a `full-doc` parent is never
 *   split, so its segmentation is not checked. Then `subchunk_segmentation` must be there, and its
 *   length and overlap are checked the same way.
 */
export function indexingRuleProblem(
  rule: { mode: ChunkingMode; rules: StoredRules },
  context: IndexingRuleContext,
): string | undefined {
  const limit = context.maxSegmentationLength ?? DEFAULT_MAX_SEGMENTATION_LENGTH;
  const check = (sizes: Sizes) => (rule.mode === "automatic" ? undefined : sizeProblem(sizes, limit));
  const { rules } = rule;
  if (context.docForm === "text_model") return check(rules.segmentation);
  if (!rules.parent_mode) return MESSAGES.parentModeNeeded;
  const parentProblem = rules.parent_mode === "paragraph" ? check(rules.segmentation) : undefined;
  if (parentProblem) return parentProblem;
  if (!rules.subchunk_segmentation) return MESSAGES.subchunkSegmentationMissing;
  return check(rules.subchunk_segmentation);
}
