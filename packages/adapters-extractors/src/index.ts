export { FormatTextExtractor, READABLE_EXTENSIONS } from "./format-text-extractor.js";
export { defaultExtractionLimits, type ExtractionLimits } from "./limits.js";
export {
  WorkerThreadTextPipeline,
  type WorkerThreadTextPipelineOptions,
} from "./threads/worker-thread-text-pipeline.js";
