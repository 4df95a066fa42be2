export * from "./get-web-app-settings.js";
