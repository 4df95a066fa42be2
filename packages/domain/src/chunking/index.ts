export { chunkDocument } from "./chunk-document.js";
export { cleanText } from "./clean.js";
export { type ChildChunkDraft, type ChunkDraft, type ChunkForm, hashSourceOf } from "./drafts.js";
export { removeLeadingSymbols } from "./leading-symbols.js";
export { splitChildChunks } from "./parent-child.js";
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
