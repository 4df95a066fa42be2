export * from "./open-postgres-store.js";
export * from "./postgres-unavailability.js";
