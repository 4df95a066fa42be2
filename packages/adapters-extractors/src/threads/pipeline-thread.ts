// The module each thread of `WorkerThreadTextPipeline` runs (a worker entry, not a library module).
import { workerData } from "node:worker_threads";
import { FormatTextExtractor } from "../format-text-extractor.js";
import {
  type PipelineAnswer,
  type PipelineTask,
  type PipelineThreadData,
  prepareSegments,
} from "./pipeline-tasks.js";
import { serveThreadCalls } from "./serve-thread-calls.js";

const { limits } = workerData as PipelineThreadData;
const extractor = new FormatTextExtractor(limits);

serveThreadCalls<PipelineTask, PipelineAnswer>((task) =>
  task.kind === "extract"
    ? extractor.extract({ bytes: task.bytes, extension: task.extension })
    : prepareSegments(task.units, task.rule),
);
