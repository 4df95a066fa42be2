export * from "./delete-segment.js";
export * from "./get-segment.js";
export * from "./list-child-chunks.js";
export * from "./list-segments.js";
export * from "./segment-scope.js";
