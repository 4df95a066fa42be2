export * from "./app.js";
export * from "./config.js";
export * from "./container.js";
export * from "./embed.js";
export { expressMessages } from "./http/express-messages.js";
export * from "./logger.js";
export * from "./server.js";
export * from "./tokens.js";
