export * from "./list-conversation-variables.js";
export * from "./update-conversation-variable.js";
