import type { Job, JobKind, JobQueue, NewJob } from "../../job-queue.js";
import { byText, type Snapshotting } from "./snapshotting.js";

interface StoredJob extends NewJob {
  leaseOwner: string | null;
  leaseUntil: number | null;
  attempts: number;
}

export class InMemoryJobQueue implements JobQueue, Snapshotting {
  #jobs = new Map<string, StoredJob>();

  snapshot(): unknown {
    return structuredClone(this.#jobs);
  }

  restore(snapshot: unknown): void {
    this.#jobs = snapshot as Map<string, StoredJob>;
  }

  async enqueue(job: NewJob): Promise<void> {
    this.#jobs.set(job.id, { ...job, leaseOwner: null, leaseUntil: null, attempts: 0 });
  }

  async claim(kinds: readonly JobKind[], worker: string, now: number, leaseUntil: number) {
    const due = [...this.#jobs.values()]
      .filter((job) => kinds.includes(job.kind) && job.runAfter <= now)
      .filter((job) => job.leaseUntil === null || job.leaseUntil < now)
      .sort((a, b) => a.runAfter - b.runAfter || byText(a.id, b.id));
    const [job] = due;
    if (!job) return undefined;
    Object.assign(job, { leaseOwner: worker, leaseUntil, attempts: job.attempts + 1 });
    const claimed: Job = { id: job.id, kind: job.kind, subjectId: job.subjectId, attempts: job.attempts };
    return claimed;
  }

  #held(jobId: string, worker: string): StoredJob | undefined {
    const job = this.#jobs.get(jobId);
    return job?.leaseOwner === worker ? job : undefined;
  }

  async renew(jobId: string, worker: string, leaseUntil: number): Promise<boolean> {
    const job = this.#held(jobId, worker);
    if (job) job.leaseUntil = leaseUntil;
    return job !== undefined;
  }

  async finish(jobId: string, worker: string): Promise<boolean> {
    return this.#held(jobId, worker) !== undefined && this.#jobs.delete(jobId);
  }

  async release(jobId: string, worker: string, runAfter: number): Promise<void> {
    const job = this.#held(jobId, worker);
    if (job) Object.assign(job, { leaseOwner: null, leaseUntil: null, runAfter });
  }

  async holds(jobId: string, worker: string): Promise<boolean> {
    return this.#held(jobId, worker) !== undefined;
  }

  async countByKind(): Promise<Partial<Record<JobKind, number>>> {
    const counts: Partial<Record<JobKind, number>> = {};
    for (const { kind } of this.#jobs.values()) counts[kind] = (counts[kind] ?? 0) + 1;
    return counts;
  }
}
