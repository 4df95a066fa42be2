export * from "./dataset-view.js";
export * from "./get-dataset.js";
export * from "./list-datasets.js";
export * from "./open-dataset.js";
