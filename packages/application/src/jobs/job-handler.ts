import type { Job, JobKind } from "@service-api/ports";

/** The job's lease, as its handler sees it: kept while the work goes on. */
export interface Lease {
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
}
