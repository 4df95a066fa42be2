import type { Job, JobKind } from "@service-api/ports";

/** The job's lease, as its handler sees it: kept while the work goes on. */
export interface Lease {
  /** The worker holding it: the fence of the job's writes, with the job's id. */
  readonly holder: string;
  /** Extends the lease; false when it was lost (another worker has the job now): stop then. */
  renew(): Promise<boolean>;
}

/** What does the work of one kind of job. */
export interface JobHandler {
  readonly kind: JobKind;
  /**
   * Does the job's work, in steps that each commit on their own, so that a worker that dies part
   * way leaves work another can take over (each step safe to run twice). Resolves "done" when the
   * job's work is all done; "lost" when the lease was lost first.
   */
  run(job: Job, lease: Lease): Promise<"done" | "lost">;
  /**
   * Ends a job that failed too often to try again (its attempts spent): what it worked on records
   * why. The job is deleted after.
   */
  abandon?(job: Job, lease: Lease): Promise<void>;
}
