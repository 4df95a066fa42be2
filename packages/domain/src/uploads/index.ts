export * from "./archive-names.js";
export * from "./mime-types.js";
export * from "./upload-errors.js";
export * from "./upload-gate.js";
