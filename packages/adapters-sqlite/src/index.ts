export * from "./open-sqlite-store.js";
export * from "./sqlite-location.js";
