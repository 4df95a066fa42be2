export * from "./list-available-models.js";
