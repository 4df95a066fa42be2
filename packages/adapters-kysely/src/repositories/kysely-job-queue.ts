import type { Job, JobKind, JobQueue, NewJob } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";

/**
 * Jobs as rows of `jobs`. A claim is one statement: the first due job without a live lease, leased
 * as it is read; on PostgreSQL its row is taken `FOR UPDATE SKIP LOCKED`, so workers claiming at once
 * on any instance each get another job and never wait for one another. (SQLite's writes are serial.)
 */
export class KyselyJobQueue implements JobQueue {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

  async enqueue(job: NewJob): Promise<void> {
    await this.db
      .insertInto("jobs")
      .values({
        id: job.id,
        kind: job.kind,
        subject_id: job.subjectId,
        run_after: job.runAfter,
        created_at: job.createdAt,
      })
      .execute();
  }

  async claim(kinds: readonly JobKind[], worker: string, now: number, leaseUntil: number) {
    if (kinds.length === 0) return undefined;
    const due = this.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "in", kinds)
      .where("run_after", "<=", now)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
      .orderBy("run_after")
      .orderBy("id")
      .limit(1);
    const [row] = await this.db
      .updateTable("jobs")
      .set((eb) => ({ lease_owner: worker, lease_until: leaseUntil, attempts: eb("attempts", "+", 1) }))
      .where("id", "=", this.features.locksRows ? due.forUpdate().skipLocked() : due)
      .returning(["id", "kind", "subject_id", "attempts"])
      .execute();
    if (!row) return undefined;
    const job: Job = {
      id: row.id,
      kind: row.kind as JobKind,
      subjectId: row.subject_id,
      attempts: Number(row.attempts),
    };
    return job;
  }

  async renew(jobId: string, worker: string, leaseUntil: number): Promise<boolean> {
    const renewed = await this.db
      .updateTable("jobs")
      .set({ lease_until: leaseUntil })
      .where("id", "=", jobId)
      .where("lease_owner", "=", worker)
      .returning("id")
      .execute();
    return renewed.length > 0;
  }

  async finish(jobId: string, worker: string): Promise<boolean> {
    const finished = await this.db
      .deleteFrom("jobs")
      .where("id", "=", jobId)
      .where("lease_owner", "=", worker)
      .returning("id")
      .execute();
    return finished.length > 0;
  }

  async release(jobId: string, worker: string, runAfter: number): Promise<void> {
    await this.db
      .updateTable("jobs")
      .set({ lease_owner: null, lease_until: null, run_after: runAfter })
      .where("id", "=", jobId)
      .where("lease_owner", "=", worker)
      .execute();
  }

  async holds(jobId: string, worker: string): Promise<boolean> {
    const [row] = await this.db
      .selectFrom("jobs")
      .select("id")
      .where("id", "=", jobId)
      .where("lease_owner", "=", worker)
      .execute();
    return row !== undefined;
  }

  async countByKind(): Promise<Partial<Record<JobKind, number>>> {
    const rows = await this.db
      .selectFrom("jobs")
      .select((eb) => ["kind", eb.fn.countAll().as("count")])
      .groupBy("kind")
      .execute();
    return Object.fromEntries(rows.map(({ kind, count }) => [kind, Number(count)]));
  }
}
