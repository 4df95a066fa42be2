export * from "./get-app-info.js";
export * from "./get-web-app-settings.js";
