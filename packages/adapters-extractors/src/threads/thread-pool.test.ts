import { afterEach, describe, expect, it } from "vitest";
import type { HostileAnswer, HostileRequest } from "./hostile-thread.test-support.js";
import { ThreadFailure } from "./thread-failure.js";
import { ThreadPool, type ThreadPoolOptions } from "./thread-pool.js";

const HOSTILE = new URL("./hostile-thread.test-support.ts", import.meta.url);
const pools: ThreadPool<HostileRequest, HostileAnswer>[] = [];

function pool(options: Partial<ThreadPoolOptions> = {}) {
  const created = new ThreadPool<HostileRequest, HostileAnswer>({
    entry: HOSTILE,
    size: 1,
    timeLimitMs: 20_000,
    ...options,
    resourceLimits: { maxOldGenerationSizeMb: 64, ...options.resourceLimits },
  });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

/** The failure `promise` rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<ThreadFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ThreadFailure)) throw new Error(`Expected a ThreadFailure, got ${String(error)}`);
  return error;
}

describe("ThreadPool", () => {
  it("answers a call in a thread of its own", async () => {
    const threads = pool();
    expect(await threads.run({ do: "answer", value: "hello" })).toBe("hello");
  });

  it("fails only the call of a thread that exits, and serves the next call on a new thread", async () => {
    const threads = pool();
    const first = await threads.run({ do: "tell-thread" });
    const failure = await failureOf(threads.run({ do: "exit", code: 3 }));
    expect(failure).toMatchObject({ kind: "crashed", message: "A thread stopped (exit code 3)." });
    const next = await threads.run({ do: "tell-thread" });
    expect(next).not.toBe(first);
  });

  it("fails the call of a thread that throws an uncaught error, with the error's message", async () => {
    const threads = pool();
    const failure = await failureOf(threads.run({ do: "throw-uncaught", message: "the reader broke" }));
    expect(failure).toMatchObject({ kind: "crashed", message: "A thread crashed (the reader broke)." });
    expect(await threads.run({ do: "answer", value: "still serving" })).toBe("still serving");
  });

  it("rejects a call that throws with its message, and the same thread goes on serving", async () => {
    const threads = pool();
    const before = await threads.run({ do: "tell-thread" });
    const failure = await failureOf(threads.run({ do: "throw", message: "no such rule" }));
    expect(failure).toMatchObject({ kind: "failed", message: "A thread failed: no such rule." });
    expect(await threads.run({ do: "tell-thread" })).toBe(before);
  });

  it("ends a thread whose call passes the time limit, and serves the next call", async () => {
    const threads = pool({ timeLimitMs: 100 });
    const failure = await failureOf(threads.run({ do: "hang" }));
    expect(failure).toMatchObject({ kind: "timed-out", message: "A thread took longer than 0.1 s." });
    expect(await threads.run({ do: "answer", value: "after the hang" })).toBe("after the hang");
  });

  it("fails the call of a thread that passes its memory limit, and serves the next call", async () => {
    const threads = pool({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const failure = await failureOf(threads.run({ do: "allocate" }));
    expect(failure).toMatchObject({
      kind: "out-of-memory",
      message: "A thread ran out of memory (over 32 MB).",
    });
    expect(await threads.run({ do: "answer", value: "after the hoard" })).toBe("after the hoard");
  });

  it("runs calls at once on as many threads as it has", async () => {
    const threads = pool({ size: 2 });
    const arrived = new SharedArrayBuffer(4);
    const meeting = { do: "meet", arrived, parties: 2, waitMs: 15_000 } as const;
    const [one, other] = await Promise.all([threads.run(meeting), threads.run(meeting)]);
    expect(one).not.toBe(other);
  });

  it("has calls wait, in the order they came, for a free thread", async () => {
    const threads = pool({ size: 1 });
    const answered: string[] = [];
    const calls = ["first", "second", "third", "fourth"].map((value) =>
      threads.run({ do: "answer", value }).then((answer) => answered.push(String(answer))),
    );
    await Promise.all(calls);
    expect(answered).toEqual(["first", "second", "third", "fourth"]);
  });

  it("fails the call a thread was started for when the thread cannot start, and the next one too", async () => {
    const threads = pool({ entry: new URL("./no-such-thread.ts", import.meta.url) });
    for (const value of ["first", "second"]) {
      const failure = await failureOf(threads.run({ do: "answer", value }));
      expect(failure.kind).toBe("crashed");
      expect(failure.message).toMatch(/^A thread could not start: it crashed \(.*no-such-thread/);
    }
  });

  it("rejects, on close, the call under way, the calls waiting and any later call", async () => {
    const threads = pool({ size: 1 });
    const running = failureOf(threads.run({ do: "hang" }));
    const waiting = failureOf(threads.run({ do: "answer", value: "never" }));
    await threads.close();
    for (const failure of [await running, await waiting, await failureOf(threads.run({ do: "hang" }))]) {
      expect(failure).toMatchObject({ kind: "closed", message: "A thread was stopped: the pool is closed." });
    }
  });
});
