export * from "./update-conversation-variable.js";
