export * from "./open-store.js";
export * from "./store-environment.js";
