import { availableParallelism } from "node:os";
import type { ResourceLimits, TransferListItem } from "node:worker_threads";
import type {
  ChunkingRule,
  Extraction,
  FileToExtract,
  PreparedSegment,
  TextPipeline,
} from "@service-api/ports";
import type { ExtractionLimits } from "../limits.js";
import type { PipelineAnswer, PipelineTask, PipelineThreadData } from "./pipeline-tasks.js";
import { ThreadFailure } from "./thread-failure.js";
import { ThreadPool } from "./thread-pool.js";
import { siblingModule } from "./thread-script.js";

export interface WorkerThreadTextPipelineOptions {
  /**
   * Threads in the pool. Default: one core left to the event loop, at most 2 threads (1 on one or
   * two cores), so that memory stays bounded by twice `maxOldGenerationSizeMb`.
   */
  threads?: number;
  /** The extractor's limits (`FormatTextExtractor`); the rest are `defaultExtractionLimits`. */
  limits?: Partial<ExtractionLimits>;
  /** How long a call may run in its thread (its start-up not counted) before both end. Default 120 s. */
  timeLimitMs?: number;
  /** Each thread's V8 limits. Default `maxOldGenerationSizeMb`: 512; the others Node's. */
  resourceLimits?: ResourceLimits;
}

const DEFAULT_TIME_LIMIT_MS = 120_000;
const DEFAULT_THREAD_MEMORY_MB = 512;

const OPERATIONS = {
  extract: { failed: "The file could not be read", worker: "its reader" },
  chunk: { failed: "The document could not be chunked", worker: "its chunker" },
} as const;

/**
 * The `TextPipeline` on a pool of Node worker threads: `FormatTextExtractor` and Dify's chunker
 * (`chunkDocument`, each chunk hashed) run there, never on the caller's event loop. Threads start
 * on first use and are replaced when they end; idle, they do not keep the process alive. A call
 * whose thread crashes, runs out of memory or passes the time limit rejects with an `Error` saying
 * so ("The file could not be read: its reader ran out of memory (over 512 MB)."); the pool goes on.
 */
export class WorkerThreadTextPipeline implements TextPipeline {
  private readonly pool: ThreadPool<PipelineTask, PipelineAnswer>;

  constructor(options: WorkerThreadTextPipelineOptions = {}) {
    const size = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`threads must be 1 or more, not ${size}.`);
    if (!(timeLimitMs > 0)) throw new RangeError(`timeLimitMs must be positive, not ${timeLimitMs}.`);
    const workerData: PipelineThreadData = { limits: options.limits ?? {} };
    this.pool = new ThreadPool({
      entry: siblingModule("pipeline-thread", import.meta.url),
      workerData,
      size,
      timeLimitMs,
      resourceLimits: { maxOldGenerationSizeMb: DEFAULT_THREAD_MEMORY_MB, ...options.resourceLimits },
    });
  }

  async extract(file: FileToExtract): Promise<Extraction> {
    // A copy in a buffer of its own, moved to the thread: the caller's bytes stay theirs (a Node
    // Buffer may share its memory with others).
    const bytes = new Uint8Array(file.bytes.byteLength);
    bytes.set(file.bytes);
    const task: PipelineTask = { kind: "extract", bytes, extension: file.extension };
    return (await this.run("extract", task, [bytes.buffer])) as Extraction;
  }

  async chunk(units: readonly string[], rule: ChunkingRule): Promise<PreparedSegment[]> {
    return (await this.run("chunk", { kind: "chunk", units, rule })) as PreparedSegment[];
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async run(
    operation: keyof typeof OPERATIONS,
    task: PipelineTask,
    transfer: TransferListItem[] = [],
  ): Promise<PipelineAnswer> {
    try {
      return await this.pool.run(task, transfer);
    } catch (error) {
      if (!(error instanceof ThreadFailure)) throw error;
      const { failed, worker } = OPERATIONS[operation];
      const what = error.kind === "closed" ? "the text pipeline was closed" : `${worker} ${error.happened}`;
      throw new Error(`${failed}: ${what}.`, { cause: error });
    }
  }
}
