import { describe, expect, it } from "vitest";
import { FlushNotVouchedError, GroupFlush } from "./group-flush.js";

/** A flush whose end the test decides, counting the flushes started, and a count of lost connections. */
function controlledFlush() {
  const ends: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const lost = { count: 0 };
  const flush = new GroupFlush(
    () =>
      new Promise<void>((resolve, reject) => {
        ends.push({ resolve, reject });
      }),
    () => lost.count,
  );
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const wait = () => flush.wait(flush.mark());
  return { flush, wait, ends, lost, tick };
}

describe("GroupFlush", () => {
  it("runs one flush for a caller alone, and resolves when it ends", async () => {
    const { wait, ends, tick } = controlledFlush();
    let done = false;
    const waiting = wait().then(() => {
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
    const { wait, ends, tick } = controlledFlush();
    const first = wait();
    await tick();
    const settled: string[] = [];
    const later = [wait(), wait(), wait()].map((waiting, index) =>
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
    // A caller that comes while that next flush runs waits for a third.
    let lastDone = false;
    const last = wait().then(() => {
      lastDone = true;
    });
    ends[1]!.resolve();
    await Promise.all(later);
    expect(settled).toHaveLength(3);
    await tick();
    expect(lastDone).toBe(false);
    expect(ends).toHaveLength(3);
    ends[2]!.resolve();
    await last;
    // Nothing runs once all have been answered; the next caller starts a flush of its own.
    const again = wait();
    await tick();
    expect(ends).toHaveLength(4);
    ends[3]!.resolve();
    await again;
  });

  it("fails the callers of a flush that fails and those waiting for the next; later callers get a flush of their own", async () => {
    const { wait, ends, tick } = controlledFlush();
    const first = wait();
    await tick();
    // Committed while the failing flush ran: whether that commit lasts is as unknown as the others'.
    const next = wait();
    const failure = new Error("connection lost");
    ends[0]!.reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(next).rejects.toBe(failure);
    await tick();
    expect(ends).toHaveLength(1);
    const after = wait();
    await tick();
    expect(ends).toHaveLength(2);
    ends[1]!.resolve();
    await expect(after).resolves.toBeUndefined();
  });

  it("refuses a caller when a connection was lost between its mark and the end of its flush", async () => {
    const { flush, ends, lost, tick } = controlledFlush();
    const mark = flush.mark();
    lost.count += 1;
    const waiting = flush.wait(mark);
    await tick();
    ends[0]!.resolve();
    await expect(waiting).rejects.toBeInstanceOf(FlushNotVouchedError);
    // Marked after the loss: vouched for.
    const later = flush.wait(flush.mark());
    await tick();
    ends[1]!.resolve();
    await expect(later).resolves.toBeUndefined();
  });

  it("turns a flush that throws at once into a rejection", async () => {
    const flush = new GroupFlush(() => {
      throw new Error("no connection");
    });
    await expect(flush.wait(flush.mark())).rejects.toThrow("no connection");
    await expect(flush.wait(flush.mark())).rejects.toThrow("no connection");
  });
});
