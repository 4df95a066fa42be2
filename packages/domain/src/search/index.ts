export * from "./analyzer.js";
export * from "./bm25.js";
export * from "./prepared-chunks.js";
export * from "./search-units.js";
