// Checks the built package under plain Node, as the server loads it (`dist/index.js`, through the
// `default` export condition): one extract and one chunk in WorkerThreadTextPipeline's threads, and
// the process ends by itself once the pool is idle (no close()). Run after building this package and
// the workspace packages it imports (`pnpm build` at the root): `node src/threads/check-dist.mjs`.
import assert from "node:assert/strict";
import { WorkerThreadTextPipeline } from "@service-api/adapters-extractors";
import { AUTOMATIC_RULES } from "@service-api/domain";

const watchdog = setTimeout(() => {
  console.error("check-dist: the idle pool kept the process alive.");
  process.exit(1);
}, 10_000);
watchdog.unref();

const pipeline = new WorkerThreadTextPipeline({ threads: 2 });
const text = "Walden\n\nor, Life in the Woods";
const [extraction, segments] = await Promise.all([
  pipeline.extract({ bytes: new TextEncoder().encode(text), extension: "txt" }),
  pipeline.chunk([text], { mode: "automatic", rules: AUTOMATIC_RULES, form: "text_model" }),
]);
assert.deepEqual(extraction, { ok: true, units: [text] });
assert.deepEqual(segments, [
  {
    content: text,
    indexNodeHash: "6cd0f1b5813cedfeedf71e49cbc871314ad89b7c2505b000fa78aac8876e1f2c",
    children: [],
  },
]);
console.log("check-dist: dist/index.js extracts and chunks in worker threads.");
