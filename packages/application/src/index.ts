export * from "./access/authenticate-api-key.js";
export * from "./app/index.js";
export * from "./conversations/index.js";
export * from "./datasets/index.js";
export * from "./documents/index.js";
export * from "./metadata/index.js";
export * from "./tags/index.js";
