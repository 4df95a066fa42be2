export * from "./create-dataset.js";
export * from "./dataset-view.js";
export * from "./delete-dataset.js";
export * from "./get-dataset.js";
export * from "./list-datasets.js";
export * from "./open-dataset.js";
export * from "./update-dataset.js";
