// Process rules in the JSON shape Dify stores and its API sends (snake_case), and how Dify's
// pydantic `Rule` reads them (core/rag/entities/processing_entities.py).

/** `separator` as sent, escapes undecoded (see `decodeSeparator`); lengths in code points. */
export interface SegmentationRule {
  separator: string;
  max_tokens: number;
  chunk_overlap: number;
}

/** `remove_extra_spaces`, `remove_urls_emails`, or `remove_stopwords` (accepted, does nothing). */
export interface PreProcessingRule {
  id: string;
  enabled: boolean;
}

export interface ProcessRuleRules {
  pre_processing_rules: readonly PreProcessingRule[];
  segmentation: SegmentationRule;
  parent_mode?: "paragraph" | "full-doc" | null;
  subchunk_segmentation?: SegmentationRule | null;
}

/**
 * `DatasetProcessRule.AUTOMATIC_RULES` as Dify stores it for `mode: automatic`. Its segmentation
 * says `delimiter` where the model reads `separator`, so the key is ignored; nothing is lost, as
 * automatic splitting never reads the segmentation anyway (`_get_splitter` takes 500 and 50 from
 * this constant and uses no fixed separator). The pre-processing rules are what cleaning applies.
 */
export interface AutomaticRules {
  readonly pre_processing_rules: readonly PreProcessingRule[];
  readonly segmentation: {
    readonly delimiter: string;
    readonly max_tokens: number;
    readonly chunk_overlap: number;
  };
  readonly parent_mode?: undefined;
  readonly subchunk_segmentation?: undefined;
}

export const AUTOMATIC_RULES: AutomaticRules = {
  pre_processing_rules: [
    { id: "remove_extra_spaces", enabled: true },
    { id: "remove_urls_emails", enabled: false },
  ],
  segmentation: { delimiter: "\n", max_tokens: 500, chunk_overlap: 50 },
};

/** The rules a document was stored with: a custom or hierarchical rule, or `AUTOMATIC_RULES`. */
export type StoredRules = ProcessRuleRules | AutomaticRules;

export type ChunkingMode = "automatic" | "custom" | "hierarchical";

/** A segmentation as the splitter needs it. */
export interface SplitSettings {
  separator: string;
  chunkSize: number;
  chunkOverlap: number;
}

/** Pydantic's `Segmentation` defaults: a missing separator is `"\n"`, a missing overlap 0. */
export function splitSettings(segmentation: {
  max_tokens: number;
  separator?: string;
  chunk_overlap?: number;
}): SplitSettings {
  return {
    separator: segmentation.separator ?? "\n",
    chunkSize: segmentation.max_tokens,
    chunkOverlap: segmentation.chunk_overlap ?? 0,
  };
}
