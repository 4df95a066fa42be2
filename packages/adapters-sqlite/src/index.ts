export * from "./open-sqlite-store.js";
export { SqliteFileError } from "./sqlite-file.js";
export * from "./sqlite-location.js";
export * from "./sqlite-unavailability.js";
