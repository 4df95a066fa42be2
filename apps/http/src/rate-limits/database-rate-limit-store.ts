import type { RateLimitRepository } from "@service-api/ports";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";

/** express-rate-limit's store over the rate limit windows of our own database, shared by every instance on it. */
export class DatabaseRateLimitStore implements Store {
  readonly localKeys = false;
  #windowMs = 60_000;

  constructor(
    private readonly rateLimits: RateLimitRepository,
    readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const window = await this.rateLimits.hit(`${this.prefix}${key}`, this.now(), this.#windowMs);
    return { totalHits: window.hits, resetTime: new Date(window.resetAtMs) };
  }

  async decrement(key: string): Promise<void> {
    await this.rateLimits.unhit(`${this.prefix}${key}`, this.now());
  }

  async resetKey(key: string): Promise<void> {
    await this.rateLimits.reset(`${this.prefix}${key}`);
  }
}
