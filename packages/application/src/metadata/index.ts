export * from "./built-in-fields.js";
export * from "./create-metadata-field.js";
export * from "./delete-metadata-field.js";
export * from "./list-metadata-fields.js";
export * from "./metadata-field-rules.js";
export * from "./rename-metadata-field.js";
export * from "./set-document-metadata.js";
