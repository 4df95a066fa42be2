export * from "./delete-document.js";
export * from "./get-document.js";
export * from "./list-documents.js";
export * from "./update-document-status.js";
