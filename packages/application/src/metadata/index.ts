export * from "./list-metadata-fields.js";
