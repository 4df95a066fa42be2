import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { RateLimitRequestHandler } from "express-rate-limit";

/** Client addresses remembered as over their limit, at most; the oldest is forgotten first. */
const BLOCKED_KEPT = 10_000;
/** Marks a request whose failure the limiter has counted already (`res.locals`). */
const COUNTED = "authFailureCounted";

/**
 * Failed authentication per client address, counted in the shared limit store only when a request
 * fails (a request that authenticates costs nothing). Past the limit a failure is answered 429
 * instead of 401, and the address is remembered here until its window ends: its next requests go
 * through the limiter before authentication (429 while the shared count is over; once the window
 * has ended, they pass and the address is forgotten). Other instances learn of an address at its
 * first failure there.
 */
export class AuthFailureLimit {
  readonly #blockedUntil = new Map<string, number>();

  constructor(private readonly limiter: RateLimitRequestHandler) {}

  /** Before authentication. */
  readonly gate: RequestHandler = (req, res, next) => {
    this.#forgetEnded();
    // No address blocked (the usual case): the client's address, which Express works out anew at
    // each read of `req.ip`, is not needed.
    if (this.#blockedUntil.size === 0) return next();
    const address = req.ip ?? "";
    const until = this.#blockedUntil.get(address);
    if (until === undefined) return next();
    if (until <= Date.now()) {
      this.#blockedUntil.delete(address);
      return next();
    }
    res.locals[COUNTED] = true;
    return this.limiter(req, res, next);
  };

  /**
   * Forgets the addresses whose window has ended, so that one that never comes back does not keep
   * every request reading its address. Addresses are kept in the order they were blocked, about the
   * order their windows end: the first still blocked ends the search, and an ended one behind it
   * goes at a later call (or when it comes back).
   */
  #forgetEnded(): void {
    if (this.#blockedUntil.size === 0) return;
    const now = Date.now();
    for (const [address, until] of this.#blockedUntil) {
      if (until > now) return;
      this.#blockedUntil.delete(address);
    }
  }

  /** After authentication failed with `error`: counts it, unless the gate already did. */
  failed(req: Request, res: Response, error: unknown, next: NextFunction): void {
    if (res.locals[COUNTED]) {
      next(error);
      return;
    }
    res.locals[COUNTED] = true;
    this.limiter(req, res, () => next(error));
  }

  /** Called by the limiter's handler: the address is over its limit until `until`. */
  block(req: Request, until: Date | undefined): void {
    const address = req.ip ?? "";
    this.#blockedUntil.delete(address);
    if (this.#blockedUntil.size >= BLOCKED_KEPT)
      this.#blockedUntil.delete(this.#blockedUntil.keys().next().value!);
    this.#blockedUntil.set(address, until?.getTime() ?? Date.now());
  }
}
