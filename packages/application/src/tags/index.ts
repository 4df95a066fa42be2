export * from "./bind-tags-to-dataset.js";
