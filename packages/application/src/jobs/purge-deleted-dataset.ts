import type { DatasetRepository, Job } from "@service-api/ports";
import type { JobHandler, Lease } from "./job-handler.js";

/** Documents (with their chunks and values) purged per transaction: short enough for no reader to wait. */
export const PURGE_BATCH = 500;

/**
 * The rows of a deleted dataset (`DeleteDataset`), purged a batch at a time; every reader stopped
 * seeing them at its delete. The lease is renewed between batches.
 */
export class PurgeDeletedDataset implements JobHandler {
  readonly kind = "purge_dataset";

  constructor(
    private readonly datasets: DatasetRepository,
    private readonly batch = PURGE_BATCH,
  ) {}

  async run(job: Job, lease: Lease): Promise<"done" | "lost"> {
    while ((await this.datasets.purgeTrashed(job.subjectId, this.batch)) === "more") {
      if (!(await lease.renew())) return "lost";
    }
    return "done";
  }
}
