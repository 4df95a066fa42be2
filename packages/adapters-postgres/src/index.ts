// A call on a closed store: refused with this `StoreUnavailableError` (both stores throw it).
export { StoreClosedError } from "@service-api/adapters-kysely";
export {
  DEFAULT_FIELD_COUNT_FOLDING,
  type FieldCountFoldingOptions,
  MAX_FIELD_COUNT_FOLD_INTERVAL_MS,
} from "./field-count-folding.js";
export * from "./open-postgres-store.js";
export * from "./postgres-unavailability.js";
