import { StoreUnavailableError } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { HttpError } from "../src/http/http-error.js";
import { CLOSED_MESSAGE, RetryingOpener } from "../src/lifecycle/retrying-opener.js";

/** Something to open: fails while `reachable` is false; counts attempts and the most at one time. */
class FakeDatabase {
  reachable = false;
  attempts = 0;
  running = 0;
  mostAtOnce = 0;
  closed = 0;
  /** Attempts wait for this before they end, when set. */
  gate: Promise<void> | undefined;

  open = async () => {
    this.attempts += 1;
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await (this.gate ?? Promise.resolve());
    this.running -= 1;
    if (!this.reachable) throw new Error("connect ECONNREFUSED");
    return {
      close: async () => {
        this.closed += 1;
      },
    };
  };
}

/** An opener over a fake database, on a clock the test moves, with what its monitor was told. */
function openerOver(database: FakeDatabase) {
  const clock = { now: 0 };
  const told: string[] = [];
  const monitor = {
    unavailable: (error: Error) => void told.push(`unavailable: ${error.message}`),
    available: () => void told.push("available"),
  };
  const opener = new RetryingOpener(database.open, { backOffMs: 1000, monitor, now: () => clock.now });
  return { opener, clock, told };
}

const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};

describe("RetryingOpener", () => {
  it("opens at once and hands every caller what opened", async () => {
    const database = Object.assign(new FakeDatabase(), { reachable: true });
    const { opener, told } = openerOver(database);
    const opened = await opener.first;
    expect(await opener.get()).toBe(opened);
    expect(opener.opened).toBe(opened);
    expect(database.attempts).toBe(1);
    expect(told).toEqual(["available"]);
  });

  it("answers StoreUnavailableError during the back-off without trying, then tries on the next call", async () => {
    const database = new FakeDatabase();
    const { opener, clock, told } = openerOver(database);
    await expect(opener.first).rejects.toThrow("connect ECONNREFUSED");
    clock.now = 999;
    const refused = await opener.get().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect((refused as Error).cause).toMatchObject({ message: "connect ECONNREFUSED" });
    expect(database.attempts).toBe(1);

    clock.now = 1000;
    await expect(opener.get()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(database.attempts).toBe(2);

    database.reachable = true;
    clock.now = 2000;
    await expect(opener.get()).resolves.toBeDefined();
    expect(database.attempts).toBe(3);
    expect(told).toEqual([
      "unavailable: connect ECONNREFUSED",
      "unavailable: connect ECONNREFUSED",
      "available",
    ]);
  });

  it("makes one attempt at a time, however many callers wait for it", async () => {
    const database = new FakeDatabase();
    const { opener, clock } = openerOver(database);
    await opener.first.catch(() => {});
    database.reachable = true;
    const slow = gate();
    database.gate = slow.promise;
    clock.now = 5000;
    const callers = Array.from({ length: 10 }, () => opener.get());
    slow.open();
    const opened = await Promise.all(callers);
    expect(new Set(opened).size).toBe(1);
    expect(database.attempts).toBe(2);
    expect(database.mostAtOnce).toBe(1);
  });

  it("closes what opened once the attempt under way ends, and refuses callers after it with a 503", async () => {
    const database = Object.assign(new FakeDatabase(), { reachable: true });
    const slow = gate();
    database.gate = slow.promise;
    const { opener } = openerOver(database);
    const closing = opener.close();
    slow.open();
    await closing;
    expect(database.closed).toBe(1);
    expect(opener.opened).toBeUndefined();
    const refused = await opener.get().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, code: "service_unavailable", message: CLOSED_MESSAGE });
    await opener.close();
    expect(database.closed).toBe(1);
  });

  it("closes at once, closing nothing, when nothing opened", async () => {
    const database = new FakeDatabase();
    const { opener } = openerOver(database);
    await opener.first.catch(() => {});
    await expect(opener.close()).resolves.toBeUndefined();
    expect(database.closed).toBe(0);
    expect(database.attempts).toBe(1);
  });
});
