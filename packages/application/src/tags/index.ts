export * from "./bind-tags-to-dataset.js";
export * from "./create-knowledge-tag.js";
export * from "./delete-knowledge-tag.js";
export * from "./knowledge-tag-rules.js";
export * from "./list-dataset-tags.js";
export * from "./list-knowledge-tags.js";
export * from "./rename-knowledge-tag.js";
export * from "./unbind-tags-from-dataset.js";
