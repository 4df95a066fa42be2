export * from "./get-document.js";
