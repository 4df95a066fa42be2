export * from "./api-key-token.js";
export * from "./random-uuid-generator.js";
export * from "./sha256-token-hasher.js";
export * from "./system-clock.js";
