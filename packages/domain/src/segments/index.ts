export * from "./child-chunk-edit.js";
export * from "./segment-edit.js";
export * from "./segment-input.js";
