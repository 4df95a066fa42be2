// Dify's constants for process rules (models/dataset.py `DatasetProcessRule`, services/
// dataset_service.py `DocumentService.DEFAULT_RULES`, configs `INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`).

import type { ChunkingMode } from "../chunking/rules.js";

/** `DatasetProcessRule.MODES`. */
export const PROCESS_RULE_MODES = [
  "automatic",
  "custom",
  "hierarchical",
] as const satisfies readonly ChunkingMode[];

export function isProcessRuleMode(value: unknown): value is ChunkingMode {
  return (PROCESS_RULE_MODES as readonly unknown[]).includes(value);
}

/** `Rule.parent_mode`'s literals, in pydantic's order. */
export const PARENT_MODES = ["full-doc", "paragraph"] as const;
export type ParentMode = (typeof PARENT_MODES)[number];

/**
 * `DatasetProcessRule.PRE_PROCESSING_RULES`. Creates and updates do not hold ids to this list
 * (only Dify's indexing estimate does): an unknown id is stored and cleaning ignores it, as does
 * `remove_stopwords`.
 */
export const PRE_PROCESSING_RULE_IDS = [
  "remove_stopwords",
  "remove_extra_spaces",
  "remove_urls_emails",
] as const;

/** The shortest custom segment `_get_splitter` builds a splitter for. */
export const MIN_SEGMENTATION_LENGTH = 50;

/** The longest: `INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`'s default in Dify's newer configs. */
export const DEFAULT_MAX_SEGMENTATION_LENGTH = 4000;

/**
 * `DocumentService.DEFAULT_RULES`: what Dify shows as a dataset's rule before it has one. Only a
 * display default (nothing is split by it); its `limits` carry the configured longest segment, so
 * it is built for a limit rather than held as a constant. `delimiter` is Dify's key, as stored.
 */
export function defaultRules(maxSegmentationLength: number = DEFAULT_MAX_SEGMENTATION_LENGTH) {
  return {
    mode: "custom",
    rules: {
      pre_processing_rules: [
        { id: "remove_extra_spaces", enabled: true },
        { id: "remove_urls_emails", enabled: false },
      ],
      segmentation: { delimiter: "\n", max_tokens: 1024, chunk_overlap: 50 },
    },
    limits: { indexing_max_segmentation_tokens_length: maxSegmentationLength },
  } as const;
}
