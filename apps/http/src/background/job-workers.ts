import { defaultExtractionLimits, WorkerThreadTextPipeline } from "@service-api/adapters-extractors";
import { IndexDocument, PurgeDeletedDataset, RunNextJob } from "@service-api/application";
import type { Clock, IdGenerator, Store, TextPipeline } from "@service-api/ports";
import type { Logger } from "pino";
import { JobSignal } from "./job-signal.js";

export interface JobWorkerSettings {
  /** Workers this process runs; 0 runs none (another process does the work). */
  count: number;
  /** How often an idle worker looks for a job, in ms (plus up to a fifth, at random). */
  pollMs: number;
  /** How long a lease lasts: a process that dies holding a job frees it after this. */
  leaseMs: number;
  /** The biggest file a document may be (`UPLOAD_FILE_SIZE_LIMIT_MB`): the readers take up to this. */
  maxFileBytes: number;
}

export const DEFAULT_JOB_WORKERS: JobWorkerSettings = {
  count: 1,
  pollMs: 1_000,
  leaseMs: 30_000,
  maxFileBytes: defaultExtractionLimits.maxInputBytes,
};

/**
 * The process's background workers: each claims the store's due jobs (a document to index, a
 * deleted dataset's purge) one at a time, leased, until `stop`. Documents are read and chunked in
 * worker threads (`WorkerThreadTextPipeline`), so that indexing never stalls serving. Jobs are
 * rows, so work queued by any instance is done by
 * whichever worker claims it first, and a job of a process that died is taken over once its lease
 * lapses. A failure is logged and the job tried again later; the loop goes on.
 */
export class JobWorkers {
  #stopped = false;
  #running: Promise<void>[] = [];
  #pipeline: TextPipeline | undefined;
  readonly #idling = new Set<() => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly logger: Logger,
    private readonly settings: JobWorkerSettings = DEFAULT_JOB_WORKERS,
    private readonly signal: JobSignal = new JobSignal(),
  ) {}

  start(): void {
    for (let index = 0; index < this.settings.count; index += 1) this.#running.push(this.#loop());
  }

  /** Claims no more jobs and waits for the ones under way to end (or stop at their next step). */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const cancel of [...this.#idling]) cancel();
    await Promise.all(this.#running);
    await this.#pipeline?.close();
  }

  async #loop(): Promise<void> {
    const { repositories } = this.store;
    this.#pipeline ??= this.#newPipeline();
    const next = new RunNextJob(
      repositories.jobs,
      [
        new IndexDocument(repositories, this.#pipeline, this.ids, this.clock),
        new PurgeDeletedDataset(repositories.datasets),
      ],
      this.clock,
      {
        workerId: `worker-${this.ids.next()}`,
        leaseMs: this.settings.leaseMs,
        retryMs: this.settings.pollMs,
        stopping: () => this.#stopped,
        done: (job) =>
          this.logger.info(
            { kind: job.kind, subject: job.subjectId, attempts: job.attempts },
            "background job done",
          ),
        abandoned: (job) =>
          this.logger.error(
            { kind: job.kind, subject: job.subjectId, attempts: job.attempts - 1 },
            "background job abandoned",
          ),
      },
      (error, kind) => this.logger.error({ err: error, kind }, "background job failed"),
    );
    let unreachable = false;
    while (!this.#stopped) {
      const outcome = await next.execute().catch((error: unknown) => {
        // The store itself failed (an outage): the worker waits, as when idle, and tries again.
        // Said once, not at every turn: the outage is logged as the store's.
        if (!unreachable) this.logger.warn({ err: error }, "background worker could not reach the store");
        unreachable = true;
        return "unreachable" as const;
      });
      if (outcome !== "unreachable" && unreachable) {
        unreachable = false;
        this.logger.info("background worker reaches the store again");
      }
      if (outcome !== "done" && outcome !== "lost") await this.#idle();
    }
  }

  /** Reads as big as a document may be: a text of the whole upload limit is one character a byte at most. */
  #newPipeline(): TextPipeline {
    const bytes = this.settings.maxFileBytes;
    return new WorkerThreadTextPipeline({
      limits: {
        maxInputBytes: bytes,
        maxTextCharacters: Math.max(defaultExtractionLimits.maxTextCharacters, bytes),
      },
    });
  }

  /** Waits for the next poll, or for a job this process queued (`JobSignal`), or for `stop`. */
  async #idle(): Promise<void> {
    const { pollMs } = this.settings;
    const { done, cancel } = this.signal.wait(pollMs + Math.random() * pollMs * 0.2);
    this.#idling.add(cancel);
    await done;
    this.#idling.delete(cancel);
  }
}
