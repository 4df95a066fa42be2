export { StoreClosedError } from "@service-api/adapters-postgres";
export * from "./check-store-options.js";
export * from "./open-store.js";
export * from "./store-environment.js";
