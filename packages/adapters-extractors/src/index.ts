export { FormatTextExtractor } from "./format-text-extractor.js";
export { defaultExtractionLimits, type ExtractionLimits } from "./limits.js";
