import type { Request, Response } from "express";
import type { RateLimitRequestHandler } from "express-rate-limit";
import { describe, expect, it, vi } from "vitest";
import { AuthFailureLimit } from "./auth-failure-limit.js";

/** A request from `address` that counts how often its address is read. */
function requestFrom(address: string) {
  const reads = { count: 0 };
  const req = {
    get ip() {
      reads.count++;
      return address;
    },
  } as unknown as Request;
  return { req, reads };
}

const response = () => ({ locals: {} }) as unknown as Response;

describe("AuthFailureLimit's gate", () => {
  it("sends a blocked address through the limiter, and reads no address while none is blocked", () => {
    const limiter = vi.fn((_req, _res, next: () => void) => next());
    const limit = new AuthFailureLimit(limiter as unknown as RateLimitRequestHandler);
    const free = requestFrom("10.0.0.1");
    const next = vi.fn();
    limit.gate(free.req, response(), next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(free.reads.count).toBe(0);

    limit.block(requestFrom("10.0.0.2").req, new Date(Date.now() + 60_000));
    limit.gate(requestFrom("10.0.0.2").req, response(), next);
    expect(limiter).toHaveBeenCalledTimes(1);
  });

  it("forgets an address whose window has ended, even if it never comes back", () => {
    const limiter = vi.fn();
    const limit = new AuthFailureLimit(limiter as unknown as RateLimitRequestHandler);
    limit.block(requestFrom("10.0.0.3").req, new Date(Date.now() - 1));
    const other = requestFrom("10.0.0.4");
    const next = vi.fn();
    limit.gate(other.req, response(), next);
    limit.gate(other.req, response(), next);
    expect(next).toHaveBeenCalledTimes(2);
    expect(limiter).not.toHaveBeenCalled();
    // Forgotten at the first call: neither call needed the client's address.
    expect(other.reads.count).toBe(0);
  });
});
