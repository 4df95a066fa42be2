/** What background work there is: a deleted dataset's rows to purge, a document to index. */
export type JobKind = "purge_dataset" | "index_document";

/** A job as a worker holds it. */
export interface Job {
  id: string;
  kind: JobKind;
  /** What it works on (the dataset to purge). */
  subjectId: string;
  /** How many times it has been claimed, this time included. */
  attempts: number;
}

export interface NewJob {
  id: string;
  kind: JobKind;
  subjectId: string;
  /** Unix ms: not before. */
  runAfter: number;
  /** Unix ms. */
  createdAt: number;
}

/**
 * Background work that outlives the process that asked for it: jobs are rows of the store, leased
 * by workers in every process. A worker that dies holding a job loses it when its lease lapses, and
 * another takes it over. Times are Unix milliseconds, given by the caller.
 */
export interface JobQueue {
  /** Adds a job. In a transaction, it exists only if the transaction commits. */
  enqueue(job: NewJob): Promise<void>;
  /**
   * Leases to `worker`, until `leaseUntil`, the first job of these kinds (by `runAfter`, then id)
   * that is due at `now` and that no live lease holds; its attempts grow by one. Undefined when
   * none is. Of workers claiming at once, on any instance, each gets a different job.
   */
  claim(kinds: readonly JobKind[], worker: string, now: number, leaseUntil: number): Promise<Job | undefined>;
  /** Extends the lease `worker` holds on the job; false when it holds it no longer. */
  renew(jobId: string, worker: string, leaseUntil: number): Promise<boolean>;
  /**
   * Deletes the job `worker` holds: true. False, deleting nothing, when its lease was lost (another
   * worker may have it now): called in the transaction that writes the job's work, it fences it.
   */
  finish(jobId: string, worker: string): Promise<boolean>;
  /** Gives back the job `worker` holds, to run again from `runAfter`; nothing when it holds it no longer. */
  release(jobId: string, worker: string, runAfter: number): Promise<void>;
  /** Whether `worker` holds the job's lease now. */
  holds(jobId: string, worker: string): Promise<boolean>;
  /** The jobs waiting or running, by kind; kinds without any are absent. */
  countByKind(): Promise<Partial<Record<JobKind, number>>>;
}
