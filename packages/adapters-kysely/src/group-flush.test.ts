import { describe, expect, it } from "vitest";
import { GroupFlush } from "./group-flush.js";

/** A flush whose end the test decides, counting the flushes started. */
function controlledFlush() {
  const ends: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const flush = new GroupFlush(
    () =>
      new Promise<void>((resolve, reject) => {
        ends.push({ resolve, reject });
      }),
  );
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { flush, ends, tick };
}

describe("GroupFlush", () => {
  it("runs one flush for a caller alone, and resolves when it ends", async () => {
    const { flush, ends, tick } = controlledFlush();
    let done = false;
    const waiting = flush.wait().then(() => {
      done = true;
    });
    await tick();
    expect(ends).toHaveLength(1);
    expect(done).toBe(false);
    ends[0]!.resolve();
    await waiting;
    expect(done).toBe(true);
  });

  it("makes every caller that comes while a flush runs wait for one next flush, started after it", async () => {
    const { flush, ends, tick } = controlledFlush();
    const first = flush.wait();
    await tick();
    const settled: string[] = [];
    const later = [flush.wait(), flush.wait(), flush.wait()].map((waiting, index) =>
      waiting.then(() => settled.push(`later ${index}`)),
    );
    await tick();
    // The later callers' commits may have come after the running flush began: it does not cover them.
    expect(ends).toHaveLength(1);
    ends[0]!.resolve();
    await first;
    await tick();
    expect(settled).toEqual([]);
    expect(ends).toHaveLength(2);
    ends[1]!.resolve();
    await Promise.all(later);
    expect(settled).toHaveLength(3);
    // Nothing runs once all have been answered; the next caller starts a flush of its own.
    const again = flush.wait();
    await tick();
    expect(ends).toHaveLength(3);
    ends[2]!.resolve();
    await again;
  });

  it("gives a flush's failure to its callers only, and the next callers a flush of their own", async () => {
    const { flush, ends, tick } = controlledFlush();
    const first = flush.wait();
    await tick();
    const next = flush.wait();
    const failure = new Error("connection lost");
    ends[0]!.reject(failure);
    await expect(first).rejects.toBe(failure);
    await tick();
    expect(ends).toHaveLength(2);
    ends[1]!.resolve();
    await expect(next).resolves.toBeUndefined();
  });

  it("turns a flush that throws at once into a rejection", async () => {
    const flush = new GroupFlush(() => {
      throw new Error("no connection");
    });
    await expect(flush.wait()).rejects.toThrow("no connection");
    await expect(flush.wait()).rejects.toThrow("no connection");
  });
});
