import { StoreUnavailableError } from "@service-api/domain";
import type { StoreMonitor } from "@service-api/ports";
import { describe, expect, it, vi } from "vitest";
import { LockWaits } from "./lock-waits.js";
import { OpenCalls } from "./open-calls.js";
import { CONFLICT_ATTEMPTS, guarded, LONGEST_LOCK_PAUSE_MS } from "./store-guard.js";

const conflict = () => Object.assign(new Error("deadlock detected"), { code: "40P01" });
const locked = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
const down = () => Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });

function aGuard() {
  const monitor = {
    available: vi.fn(),
    unavailable: vi.fn(),
    connectionLost: vi.fn(),
    conflictsExhausted: vi.fn(),
    lockWaitExceeded: vi.fn(),
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

  describe("given a lock another connection holds", () => {
    const lockedOut = (lockRetryMs?: number) => {
      const { guard, monitor } = aGuard();
      const isLocked = (error: unknown) => (error as { code?: string }).code === "SQLITE_BUSY";
      // A database's unavailability includes its locks (SQLite's busy): the lock is told first.
      return { monitor, guard: { ...guard, isUnavailable: isLocked, isLocked, lockRetryMs } };
    };

    it("runs work again while the lock is held, leaving the event loop free between tries", async () => {
      const { guard, monitor } = lockedOut(2000);
      const work = failingThen(...Array.from({ length: 8 }, () => locked));
      let ticks = 0;
      const ticking = setInterval(() => ticks++, 1);
      try {
        expect(await guarded(guard, work, true)).toBe("done");
      } finally {
        clearInterval(ticking);
      }
      expect(work).toHaveBeenCalledTimes(9);
      // Pauses of 1, 2, 4, 8, 16, then the longest: timers ran between them.
      expect(ticks).toBeGreaterThanOrEqual(8);
      expect(monitor.unavailable).not.toHaveBeenCalled();
      expect(monitor.lockWaitExceeded).not.toHaveBeenCalled();
    });

    it("lets one waiting call try at a time: the others try again once it stops trying", async () => {
      const { guard } = lockedOut(10_000);
      const lockWaits = new LockWaits();
      let held = true;
      const triesWhileHeld = [0, 0, 0, 0, 0];
      const calls = triesWhileHeld.map((_, index) =>
        guarded(
          { ...guard, lockWaits },
          async () => {
            if (!held) return index;
            triesWhileHeld[index]! += 1;
            throw locked();
          },
          true,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      held = false;
      expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4]);
      // The first to meet the lock tried after each pause; the others once, when they met it.
      expect(triesWhileHeld[0]).toBeGreaterThanOrEqual(3);
      expect(triesWhileHeld.slice(1)).toEqual([1, 1, 1, 1]);
    });

    it("stops waiting once the store is closing, so that closing does not wait for the lock", async () => {
      const calls = new OpenCalls();
      const { guard, monitor } = lockedOut(10_000);
      const waiting = guarded(
        { ...guard, calls, lockWaits: new LockWaits() },
        async () => {
          throw locked();
        },
        true,
      ).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      await calls.close();
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await waiting).toBeInstanceOf(StoreUnavailableError);
      expect(monitor.lockWaitExceeded).toHaveBeenCalledTimes(1);
    });

    it("refuses the call once its wait is over, telling the monitor of the lock, not of an outage", async () => {
      const { guard, monitor } = lockedOut(10 * LONGEST_LOCK_PAUSE_MS);
      const work = vi.fn(async () => {
        throw locked();
      });
      const started = performance.now();
      const failure = await guarded(guard, work, true).catch((error: unknown) => error);
      expect(performance.now() - started).toBeGreaterThanOrEqual(10 * LONGEST_LOCK_PAUSE_MS - 1);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as Error).cause).toMatchObject({ code: "SQLITE_BUSY" });
      expect(work.mock.calls.length).toBeGreaterThan(3);
      expect(monitor.lockWaitExceeded).toHaveBeenCalledTimes(1);
      expect(monitor.unavailable).not.toHaveBeenCalled();
    });

    it("does not wait in a call that is not run again (inside a transaction, a snapshot, a ping)", async () => {
      const { guard, monitor } = lockedOut(2000);
      const work = failingThen(locked);
      await expect(guarded(guard, work)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(work).toHaveBeenCalledTimes(1);
      expect(monitor.lockWaitExceeded).toHaveBeenCalledTimes(1);
    });

    it("does not wait where the database waited itself (no lockRetryMs: PostgreSQL's lock_timeout)", async () => {
      const { guard, monitor } = lockedOut();
      const work = failingThen(locked);
      await expect(guarded(guard, work, true)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(work).toHaveBeenCalledTimes(1);
      expect(monitor.lockWaitExceeded).toHaveBeenCalledTimes(1);
      expect(monitor.unavailable).not.toHaveBeenCalled();
    });
  });
});
