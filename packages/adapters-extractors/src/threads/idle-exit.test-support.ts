// Run as a process of its own by `worker-thread-text-pipeline.limits.test.ts`: it must print its
// answer (a busy thread keeps the process up) and then exit (idle threads do not), without close().
import { AUTOMATIC_RULES } from "@service-api/domain";
import { WorkerThreadTextPipeline } from "./worker-thread-text-pipeline.js";

const pipeline = new WorkerThreadTextPipeline({ threads: 2 });
const segments = await pipeline.chunk(["Conclusion"], {
  mode: "automatic",
  rules: AUTOMATIC_RULES,
  form: "text_model",
});
process.stdout.write(`${segments.length} segment\n`);
