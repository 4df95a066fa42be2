import type { Clock, Job, JobQueue } from "@service-api/ports";
import type { JobHandler } from "./job-handler.js";

export interface JobWorkerOptions {
  /** Who holds the leases: unique per worker, across instances. */
  workerId: string;
  /** How long a lease lasts; a worker that dies holding a job frees it after this. */
  leaseMs: number;
  /** After a failure, how long the job waits before it is tried again (doubled each time, up to 64×). */
  retryMs: number;
  /**
   * True once the worker is stopping: a job under way stops at its next step (its lease is not
   * renewed) and is given back at once, for another worker or a restart to go on with.
   */
  stopping?: () => boolean;
  /** Told of each job done (the worker's log). */
  done?: (job: Job) => void;
}

/** What one call did: ran a job to its end, found none due, lost the lease, or failed (to retry). */
export type JobOutcome = "done" | "idle" | "lost" | "failed";

/**
 * Run Next Job: claims the first due job a handler knows, leased to this worker, runs it, and
 * deletes it once done. A job whose handler fails is given back to run again later, after a wait
 * that doubles with each attempt; its error goes to `failed` (the worker's log), never to a caller.
 */
export class RunNextJob {
  readonly #handlers: Map<string, JobHandler>;

  constructor(
    private readonly jobs: JobQueue,
    handlers: readonly JobHandler[],
    private readonly clock: Clock,
    private readonly options: JobWorkerOptions,
    private readonly failed: (error: unknown, kind: string) => void = () => {},
  ) {
    this.#handlers = new Map(handlers.map((handler) => [handler.kind, handler]));
  }

  async execute(): Promise<JobOutcome> {
    const { workerId, leaseMs, retryMs } = this.options;
    const leaseEnd = () => this.clock.nowMilliseconds() + leaseMs;
    const now = this.clock.nowMilliseconds();
    const job = await this.jobs.claim([...this.#handlers.keys()] as never, workerId, now, now + leaseMs);
    if (!job) return "idle";
    const handler = this.#handlers.get(job.kind)!;
    const stopping = this.options.stopping ?? (() => false);
    try {
      const renew = async () => !stopping() && this.jobs.renew(job.id, workerId, leaseEnd());
      const outcome = await handler.run(job, { renew });
      if (outcome === "lost") {
        if (stopping()) await this.jobs.release(job.id, workerId, this.clock.nowMilliseconds());
        return "lost";
      }
      if (!(await this.jobs.finish(job.id, workerId))) return "lost";
      this.options.done?.(job);
      return "done";
    } catch (error) {
      this.failed(error, job.kind);
      const wait = retryMs * 2 ** Math.min(6, job.attempts - 1);
      await this.jobs.release(job.id, workerId, this.clock.nowMilliseconds() + wait).catch(() => {});
      return "failed";
    }
  }
}
