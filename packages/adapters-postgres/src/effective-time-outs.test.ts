import { describe, expect, it } from "vitest";
import { effectiveTimeOutsProblem } from "./effective-time-outs.js";

const asked = { statementTimeoutMs: 15_000, lockTimeoutMs: 5_000 };

describe("effectiveTimeOutsProblem", () => {
  it.each([
    ["as asked", asked],
    ["a lower lock time-out from the URL", { ...asked, lockTimeoutMs: 750 }],
    ["no lock limit from the URL", { ...asked, lockTimeoutMs: 0 }],
    ["no statement limit from the URL", { ...asked, statementTimeoutMs: 0 }],
    ["a longer statement time-out from the URL", { ...asked, statementTimeoutMs: 60_000 }],
  ])("accepts %s", (_, effective) => {
    expect(effectiveTimeOutsProblem(effective, asked)).toBeUndefined();
  });

  it("accepts the pair a 1 ms statement time-out derives, which the bounds' own check let through", () => {
    const tiny = { statementTimeoutMs: 1, lockTimeoutMs: 1 };
    expect(effectiveTimeOutsProblem(tiny, tiny)).toBeUndefined();
  });

  it("names what the URL changed when the lock time-out in effect is not below the statement time-out", () => {
    expect(effectiveTimeOutsProblem({ ...asked, lockTimeoutMs: 15_000 }, asked)).toMatch(
      /lock_timeout 15000 ms, not below statement_timeout 15000 ms \(the database URL sets lock_timeout 15000 ms, not 5000\)/,
    );
    expect(effectiveTimeOutsProblem({ statementTimeoutMs: 2_000, lockTimeoutMs: 3_000 }, asked)).toMatch(
      /the database URL sets statement_timeout 2000 ms, not 15000 and lock_timeout 3000 ms, not 5000\)/,
    );
  });
});
