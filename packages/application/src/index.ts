export * from "./authenticate-api-key.js";
export * from "./bind-tags-to-dataset.js";
export * from "./get-document.js";
export * from "./get-web-app-settings.js";
export * from "./list-metadata-fields.js";
export * from "./update-conversation-variable.js";
