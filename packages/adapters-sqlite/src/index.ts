export * from "./open-sqlite-store.js";
export * from "./sqlite-location.js";
export * from "./sqlite-unavailability.js";
