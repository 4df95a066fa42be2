import { StoreUnavailableError } from "@service-api/domain";
import type { StoreMonitor } from "@service-api/ports";
import { describe, expect, it, vi } from "vitest";
import { CONFLICT_ATTEMPTS, guarded } from "./store-guard.js";

const conflict = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });
const down = () => Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });

function aGuard() {
  const monitor = {
    available: vi.fn(),
    unavailable: vi.fn(),
    connectionLost: vi.fn(),
    conflictsExhausted: vi.fn(),
  };
  return {
    monitor,
    guard: {
      isUnavailable: (error: unknown) => (error as { code?: string }).code === "ECONNREFUSED",
      isConflict: (error: unknown) => (error as { code?: string }).code === "40P01",
      monitor: monitor as unknown as StoreMonitor,
    },
  };
}

/** Work that fails with each of `failures` in turn, then answers "done". */
function failingThen(...failures: (() => Error)[]) {
  let calls = 0;
  const work = vi.fn(async () => {
    const failure = failures[calls++];
    if (failure) throw failure();
    return "done";
  });
  return work;
}

describe("guarded", () => {
  it("runs work that lost a conflict again, and answers its result", async () => {
    const { guard, monitor } = aGuard();
    const work = failingThen(conflict, conflict);
    expect(await guarded(guard, work, true)).toBe("done");
    expect(work).toHaveBeenCalledTimes(3);
    expect(monitor.unavailable).not.toHaveBeenCalled();
    expect(monitor.conflictsExhausted).not.toHaveBeenCalled();
  });

  it(`answers 503 after ${CONFLICT_ATTEMPTS} lost conflicts, without calling it an outage`, async () => {
    const { guard, monitor } = aGuard();
    const work = failingThen(conflict, conflict, conflict, conflict);
    const failure = await guarded(guard, work, true).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).cause).toMatchObject({ code: "40P01" });
    expect(work).toHaveBeenCalledTimes(CONFLICT_ATTEMPTS);
    expect(monitor.unavailable).not.toHaveBeenCalled();
    expect(monitor.conflictsExhausted).toHaveBeenCalledTimes(1);
    expect(monitor.conflictsExhausted).toHaveBeenCalledWith(expect.objectContaining({ code: "40P01" }));
  });

  it("passes a conflict on as it is inside a transaction, for the transaction to run again", async () => {
    const { guard } = aGuard();
    const work = failingThen(conflict);
    await expect(guarded(guard, work)).rejects.toMatchObject({ code: "40P01" });
    expect(work).toHaveBeenCalledTimes(1);
  });

  it("tries other failures once: an outage becomes StoreUnavailableError and is reported, the rest pass", async () => {
    const { guard, monitor } = aGuard();
    const outage = failingThen(down);
    await expect(guarded(guard, outage, true)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(outage).toHaveBeenCalledTimes(1);
    expect(monitor.unavailable).toHaveBeenCalledTimes(1);
    const bug = failingThen(() => new Error("boom"));
    await expect(guarded(guard, bug, true)).rejects.toThrow("boom");
    expect(bug).toHaveBeenCalledTimes(1);
  });
});
