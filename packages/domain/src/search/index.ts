export * from "./analyzer.js";
export * from "./bm25.js";
export * from "./filter-evaluation.js";
export * from "./keywords.js";
export * from "./metadata-filter.js";
export * from "./prepared-chunks.js";
export * from "./search-units.js";
