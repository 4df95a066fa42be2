export * from "./index-document.js";
export * from "./job-handler.js";
export * from "./purge-deleted-dataset.js";
export * from "./run-next-job.js";
