export * from "./retrieval-input.js";
export * from "./retrieve.js";
