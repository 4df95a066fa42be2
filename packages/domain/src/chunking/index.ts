export { chunkDocument } from "./chunk-document.js";
export { cleanText } from "./clean.js";
export type { ChildChunkDraft, ChunkDraft, ChunkForm } from "./drafts.js";
export { removeLeadingSymbols } from "./leading-symbols.js";
export {
  AUTOMATIC_RULES,
  type AutomaticRules,
  type ChunkingMode,
  type PreProcessingRule,
  type ProcessRuleRules,
  type SegmentationRule,
  type StoredRules,
} from "./rules.js";
export { decodeSeparator } from "./separator.js";
