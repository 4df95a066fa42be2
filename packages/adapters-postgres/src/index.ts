export * from "./open-postgres-store.js";
