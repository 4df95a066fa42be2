export { FileDirectoryError } from "@service-api/adapters-node";
export { StoreClosedError } from "@service-api/adapters-postgres";
export { SqliteFileError, sqlitePathOf } from "@service-api/adapters-sqlite";
export * from "./check-store-options.js";
export * from "./open-store.js";
export * from "./store-environment.js";
export {
  expectedWholeNumber,
  MAX_TIMER_MS,
  type WholeNumberRule,
  wholeNumberIn,
} from "./store-option-rules.js";
export * from "./with-file-directory.js";
