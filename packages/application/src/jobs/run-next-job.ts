import type { Clock, Job, JobQueue } from "@service-api/ports";
import type { JobHandler, Lease } from "./job-handler.js";

/** Claims of one job, failed ones included, before it is abandoned. */
export const MAX_JOB_ATTEMPTS = 5;

export interface JobWorkerOptions {
  /** Who holds the leases: unique per worker, across instances. */
  workerId: string;
  /** How long a lease lasts; a worker that dies holding a job frees it after this. */
  leaseMs: number;
  /** After a failure, how long the job waits before it is tried again (doubled each time, up to 64×). */
  retryMs: number;
  /** How often the lease is renewed while a job runs; a third of `leaseMs` by default. */
  heartbeatMs?: number;
  /** Claims of a job before it is abandoned (its handler's `abandon`); `MAX_JOB_ATTEMPTS` by default. */
  maxAttempts?: number;
  /**
   * True once the worker is stopping: a job under way stops at its next step (its lease is not
   * renewed) and is given back at once, for another worker or a restart to go on with.
   */
  stopping?: () => boolean;
  /** Told of each job done (the worker's log). */
  done?: (job: Job) => void;
  /** Told of each job abandoned, its attempts spent (the worker's log). */
  abandoned?: (job: Job) => void;
}

/** What one call did: ran a job to its end, found none due, lost the lease, or failed (to retry). */
export type JobOutcome = "done" | "idle" | "lost" | "failed";

/**
 * Run Next Job: claims the first due job a handler knows, leased to this worker, runs it, and
 * deletes it once done. While the handler works, the lease is renewed every third of its length,
 * so that one long step (a big file read) does not lose it. A job whose handler fails is given
 * back to run again later, after a wait that doubles with each attempt; its error goes to
 * `failed` (the worker's log), never to a caller. A job claimed `maxAttempts` times already is
 * abandoned instead of run again.
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
    const now = this.clock.nowMilliseconds();
    const job = await this.jobs.claim([...this.#handlers.keys()] as never, workerId, now, now + leaseMs);
    if (!job) return "idle";
    const handler = this.#handlers.get(job.kind)!;
    const lease = this.#leaseOf(job);
    const heartbeat = setInterval(
      () => void lease.renew().catch(() => false),
      this.options.heartbeatMs ?? leaseMs / 3,
    );
    heartbeat.unref?.();
    try {
      if (job.attempts > (this.options.maxAttempts ?? MAX_JOB_ATTEMPTS))
        return await this.#abandon(job, handler, lease);
      const outcome = await handler.run(job, lease);
      if (outcome === "lost") return await this.#lost(job);
      if (!(await this.jobs.finish(job.id, workerId))) return "lost";
      this.options.done?.(job);
      return "done";
    } catch (error) {
      this.failed(error, job.kind);
      const wait = retryMs * 2 ** Math.min(6, job.attempts - 1);
      await this.jobs.release(job.id, workerId, this.clock.nowMilliseconds() + wait).catch(() => {});
      return "failed";
    } finally {
      clearInterval(heartbeat);
    }
  }

  #leaseOf(job: Job): Lease {
    const { workerId, leaseMs } = this.options;
    const stopping = this.options.stopping ?? (() => false);
    let held = true;
    return {
      holder: workerId,
      renew: async () => {
        if (!held || stopping()) return false;
        held = await this.jobs.renew(job.id, workerId, this.clock.nowMilliseconds() + leaseMs);
        return held;
      },
    };
  }

  async #abandon(job: Job, handler: JobHandler, lease: Lease): Promise<JobOutcome> {
    await handler.abandon?.(job, lease);
    if (!(await this.jobs.finish(job.id, this.options.workerId))) return "lost";
    this.options.abandoned?.(job);
    return "done";
  }

  async #lost(job: Job): Promise<JobOutcome> {
    const stopping = this.options.stopping ?? (() => false);
    if (stopping()) await this.jobs.release(job.id, this.options.workerId, this.clock.nowMilliseconds());
    return "lost";
  }
}
