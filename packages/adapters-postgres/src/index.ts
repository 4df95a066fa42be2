export { DEFAULT_FIELD_COUNT_FOLDING, type FieldCountFoldingOptions } from "./field-count-folding.js";
export * from "./open-postgres-store.js";
export * from "./postgres-unavailability.js";
