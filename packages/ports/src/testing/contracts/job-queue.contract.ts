import { describe, expect, it } from "vitest";
import type { NewJob } from "../../job-queue.js";
import { type OpenStore, useStore } from "./use-store.js";

const aJob = (over: Partial<NewJob> = {}): NewJob => ({
  id: globalThis.crypto.randomUUID(),
  kind: "purge_dataset",
  subjectId: globalThis.crypto.randomUUID(),
  runAfter: 1_000,
  createdAt: 1_000,
  ...over,
});

/** Jobs leased by workers of any instance: due ones first, one holder at a time, fenced when lost. */
export function describeJobQueueContract(openStore: OpenStore): void {
  describe("JobQueue contract", () => {
    const repositories = useStore(openStore);

    it("leases a due job to one worker at a time, and to another once the lease lapses", async () => {
      const { jobs } = repositories();
      const job = aJob();
      expect(await jobs.claim(["purge_dataset"], "a", 2_000, 3_000)).toBeUndefined();
      await jobs.enqueue(job);
      expect(await jobs.claim(["purge_dataset"], "a", 2_000, 3_000)).toEqual({
        id: job.id,
        kind: "purge_dataset",
        subjectId: job.subjectId,
        attempts: 1,
      });
      expect(await jobs.claim(["purge_dataset"], "b", 2_500, 3_500)).toBeUndefined();
      expect(await jobs.renew(job.id, "b", 9_000)).toBe(false);
      expect(await jobs.renew(job.id, "a", 4_000)).toBe(true);
      expect(await jobs.claim(["purge_dataset"], "b", 3_500, 4_500)).toBeUndefined();
      expect(await jobs.claim(["purge_dataset"], "b", 4_001, 5_000)).toMatchObject({
        id: job.id,
        attempts: 2,
      });
      // The first worker lost it: its finish deletes nothing (its work must not count).
      expect(await jobs.finish(job.id, "a")).toBe(false);
      expect(await jobs.countByKind()).toEqual({ purge_dataset: 1 });
      expect(await jobs.finish(job.id, "b")).toBe(true);
      expect(await jobs.countByKind()).toEqual({});
    });

    it("gives the due jobs of the kinds asked for, by when they may run, then id", async () => {
      const { jobs } = repositories();
      const later = aJob({ runAfter: 5_000 });
      const first = aJob({ runAfter: 1_000, id: "00000000-0000-4000-8000-000000000002" });
      const tie = aJob({ runAfter: 1_000, id: "00000000-0000-4000-8000-000000000001" });
      for (const job of [later, first, tie]) await jobs.enqueue(job);
      expect(await jobs.claim([], "w", 2_000, 3_000)).toBeUndefined();
      const claimed = [];
      for (let job = await jobs.claim(["purge_dataset"], "w", 2_000, 9_000); job; ) {
        claimed.push(job.id);
        job = await jobs.claim(["purge_dataset"], "w", 2_000, 9_000);
      }
      expect(claimed).toEqual([tie.id, first.id]);
      expect(await jobs.claim(["purge_dataset"], "w", 5_000, 9_000)).toMatchObject({ id: later.id });
    });

    it("gives a job back to run again from a later time", async () => {
      const { jobs } = repositories();
      const job = aJob();
      await jobs.enqueue(job);
      await jobs.claim(["purge_dataset"], "a", 2_000, 30_000);
      await jobs.release(job.id, "b", 2_000);
      expect(await jobs.claim(["purge_dataset"], "b", 2_100, 30_000)).toBeUndefined();
      await jobs.release(job.id, "a", 10_000);
      expect(await jobs.claim(["purge_dataset"], "b", 9_999, 30_000)).toBeUndefined();
      expect(await jobs.claim(["purge_dataset"], "b", 10_000, 30_000)).toMatchObject({
        id: job.id,
        attempts: 2,
      });
    });

    it("gives each of workers claiming at once a job of its own", async () => {
      const { jobs } = repositories();
      const queued = Array.from({ length: 8 }, () => aJob());
      for (const job of queued) await jobs.enqueue(job);
      const claimed = await Promise.all(
        queued.map((_, index) => jobs.claim(["purge_dataset"], `worker-${index}`, 2_000, 60_000)),
      );
      const ids = claimed.map((job) => job?.id);
      expect(new Set(ids).size).toBe(queued.length);
      expect(ids.sort()).toEqual(queued.map((job) => job.id).sort());
    });
  });
}
