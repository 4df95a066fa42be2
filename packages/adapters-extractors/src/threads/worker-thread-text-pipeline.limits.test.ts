import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chunkDocument } from "@service-api/domain";
import { afterEach, describe, expect, it } from "vitest";
import { largeText, RULES } from "./pipeline-texts.test-support.js";
import { threadExecArgv } from "./thread-script.js";
import {
  WorkerThreadTextPipeline,
  type WorkerThreadTextPipelineOptions,
} from "./worker-thread-text-pipeline.js";

const pipelines: WorkerThreadTextPipeline[] = [];

function pipeline(options: WorkerThreadTextPipelineOptions = {}) {
  const created = new WorkerThreadTextPipeline({ threads: 1, ...options });
  pipelines.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pipelines.splice(0).map((created) => created.close()));
});

const LARGE = largeText(20);
const small = (pipe: WorkerThreadTextPipeline) =>
  pipe.chunk(["Where I Lived, and What I Lived For"], RULES.automatic);

describe("WorkerThreadTextPipeline under load", () => {
  it("keeps the caller's event loop turning while it chunks 20 MB of text", async () => {
    const pipe = pipeline();
    await small(pipe); // the thread is up: what follows measures the chunking alone
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 5);
    const segments = await pipe.chunk([LARGE], RULES.automatic).finally(() => clearInterval(ticker));
    // Chunked on this thread, not a tick could happen until the chunker returned.
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(segments.length).toBe(
      chunkDocument([LARGE], "automatic", RULES.automatic.rules, "text_model").length,
    );
    // Chunking and analyzing 20 MB takes about 3 s alone, and many times that while CI runs every
    // package's tests at once on two cores: what is tested is the ticks, not the speed.
  }, 90_000);

  it("ends a call past the time limit with its thread, and answers the next call", async () => {
    // Long enough for the small call on a busy machine, far short of the large one's time.
    const pipe = pipeline({ timeLimitMs: 150 });
    await expect(pipe.chunk([LARGE, LARGE], RULES.automatic)).rejects.toThrow(
      "The document could not be chunked: its chunker took longer than 0.15 s.",
    );
    expect(await small(pipe)).toHaveLength(1);
  });

  it("fails a call whose thread passes its memory limit, and answers the next call", async () => {
    const pipe = pipeline({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    await expect(pipe.chunk([LARGE], RULES.hierarchical)).rejects.toThrow(
      "The document could not be chunked: its chunker ran out of memory (over 32 MB).",
    );
    expect(await small(pipe)).toHaveLength(1);
  });

  it("rejects, on close, the call under way and the calls waiting, and refuses later calls", async () => {
    const pipe = pipeline();
    await small(pipe);
    const running = expect(pipe.chunk([LARGE], RULES.automatic)).rejects.toThrow(
      "The document could not be chunked: the text pipeline was closed.",
    );
    const waiting = expect(
      pipe.extract({ bytes: new TextEncoder().encode("Spring"), extension: "txt" }),
    ).rejects.toThrow("The file could not be read: the text pipeline was closed.");
    await pipe.close();
    await running;
    await waiting;
    await expect(small(pipe)).rejects.toThrow(
      "The document could not be chunked: the text pipeline was closed.",
    );
  });

  it("never keeps a process alive once idle, but keeps it alive for a call under way", async () => {
    // The script awaits a call with nothing else to keep its process up, then ends without close().
    const script = new URL("./idle-exit.test-support.ts", import.meta.url);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...(threadExecArgv(script) ?? []), fileURLToPath(script)],
      { timeout: 15_000 },
    );
    expect(stdout).toBe("1 segment\n");
  });
});
