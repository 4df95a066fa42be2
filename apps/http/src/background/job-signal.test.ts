import { describe, expect, it } from "vitest";
import { JobSignal, notifying } from "./job-signal.js";

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("JobSignal", () => {
  it("wakes every idle worker at a notice, long before their poll", async () => {
    const signal = new JobSignal();
    const first = signal.wait(60_000);
    const second = signal.wait(60_000);
    expect(await settled(first.done)).toBe(false);
    signal.notify();
    expect(await settled(first.done)).toBe(true);
    expect(await settled(second.done)).toBe(true);
  });

  it("keeps a notice no worker was idle to hear, for the next one to idle", async () => {
    const signal = new JobSignal();
    signal.notify();
    expect(await settled(signal.wait(60_000).done)).toBe(true);
    expect(await settled(signal.wait(60_000).done)).toBe(false);
  });

  it("ends a wait at its time, or when cancelled", async () => {
    const signal = new JobSignal();
    const timed = signal.wait(5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await settled(timed.done)).toBe(true);
    const cancelled = signal.wait(60_000);
    cancelled.cancel();
    expect(await settled(cancelled.done)).toBe(true);
  });

  it("tells the signal once a use case has resolved, and not when it rejects", async () => {
    const signal = new JobSignal();
    const useCase = notifying(
      { execute: async (input: number) => (input > 0 ? input * 2 : Promise.reject(new Error("no"))) },
      signal,
    );
    const waiting = signal.wait(60_000);
    await expect(useCase.execute(-1)).rejects.toThrow("no");
    expect(await settled(waiting.done)).toBe(false);
    expect(await useCase.execute(2)).toBe(4);
    expect(await settled(waiting.done)).toBe(true);
  });
});
