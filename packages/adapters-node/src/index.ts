export * from "./api-key-token.js";
export * from "./directory-file-store.js";
export * from "./file-directory.js";
export * from "./random-uuid-generator.js";
export * from "./sha256-text-hasher.js";
export * from "./sha256-token-hasher.js";
export * from "./system-clock.js";
