import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { LOCK_LOG_INTERVAL_MS, StoreOutage } from "./store-outage.js";

/** A StoreOutage logging into an array of parsed lines. */
function outageLogged(now?: () => number) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { outage: new StoreOutage(pino({ level: "info" }, stream), now), lines };
}

describe("StoreOutage", () => {
  it("logs a failed upkeep task once per failure, with the error's summary and no stack", async () => {
    const { outage, lines } = outageLogged();
    const error = Object.assign(new Error('relation "metadata_field_counts" does not exist'), {
      code: "42P01",
    });
    outage.backgroundTaskFailed("fold field counts", error);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "store upkeep failed",
        task: "fold field counts",
        error: { name: "Error", message: error.message, code: "42P01" },
      }),
    ]);
  });

  it("logs a call that lost every try to concurrent transactions, and counts it", async () => {
    const { outage, lines } = outageLogged();
    outage.conflictsExhausted(Object.assign(new Error("deadlock detected"), { code: "40P01" }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "store conflict persisted",
        error: { name: "Error", message: "deadlock detected", code: "40P01" },
      }),
    ]);
    expect(outage.conflictsLost).toBe(1);
    expect(outage.down).toBe(false);
  });

  it("logs calls refused for a lock held elsewhere at most every 10 s, counts each, and is no outage", async () => {
    let now = 0;
    const { outage, lines } = outageLogged(() => now);
    const locked = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    outage.lockWaitExceeded(locked());
    now += 1_000;
    outage.lockWaitExceeded(locked());
    now += LOCK_LOG_INTERVAL_MS - 1_000;
    outage.lockWaitExceeded(locked());
    await new Promise((resolve) => setImmediate(resolve));
    const line = (refusedCalls: number) =>
      expect.objectContaining({
        level: 40,
        msg: "store lock wait exceeded",
        refusedCalls,
        error: { name: "Error", message: "database is locked", code: "SQLITE_BUSY" },
      });
    expect(lines).toEqual([line(1), line(2)]);
    expect(outage.lockWaitsExceeded).toBe(3);
    expect(outage.failures).toBe(0);
    expect(outage.down).toBe(false);
  });

  it("says nothing of upkeep during an outage, whose own line says why", async () => {
    const { outage, lines } = outageLogged();
    outage.unavailable(new Error("connect ECONNREFUSED"));
    outage.backgroundTaskFailed("fold field counts", new Error("connect ECONNREFUSED"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.msg)).toEqual(["store unavailable"]);
  });
});
