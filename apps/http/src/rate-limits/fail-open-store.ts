import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Logger } from "pino";

/** How long a hit may take before the limit store counts as failing. */
export const LIMIT_STORE_TIMEOUT_MS = 1_000;

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * Whether the limits' store answers, shared by the stores of every limiter on it: the log says once
 * when it starts failing (requests then pass without a limit) and once when it answers again.
 */
export class LimitStoreHealth {
  #failing = false;

  constructor(private readonly logger: Logger) {}

  failed(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    const message = error instanceof Error ? error.message : String(error);
    this.logger.error({ error: message }, "rate limit store failing: requests pass without a limit");
  }

  answered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.logger.warn("rate limit store answers again: limits apply");
  }
}

/**
 * A limit store that never becomes an outage: while the store behind it fails or is slow, every
 * request passes as if it were the window's first. After a failure the store is initialized again
 * before its next use (a Redis store reloads its scripts).
 */
export class FailOpenStore implements Store {
  readonly localKeys: boolean;
  readonly prefix: string | undefined;
  #options: Options | undefined;
  #failing = false;

  constructor(
    private readonly inner: Store,
    private readonly health: LimitStoreHealth,
    private readonly timeoutMs = LIMIT_STORE_TIMEOUT_MS,
  ) {
    this.localKeys = inner.localKeys ?? false;
    this.prefix = inner.prefix;
  }

  init(options: Options): void {
    this.#options = options;
    this.#initialize().catch((error: unknown) => this.#failed(error));
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      if (this.#failing) await this.#initialize();
      const info = await within(Promise.resolve(this.inner.increment(key)), this.timeoutMs);
      this.#recovered();
      return info;
    } catch (error) {
      this.#failed(error);
      return { totalHits: 1, resetTime: new Date(Date.now() + (this.#options?.windowMs ?? 0)) };
    }
  }

  async decrement(key: string): Promise<void> {
    await within(Promise.resolve(this.inner.decrement(key)), this.timeoutMs).catch((error: unknown) =>
      this.#failed(error),
    );
  }

  async resetKey(key: string): Promise<void> {
    await within(Promise.resolve(this.inner.resetKey(key)), this.timeoutMs).catch((error: unknown) =>
      this.#failed(error),
    );
  }

  async #initialize(): Promise<void> {
    if (this.#options) await within(Promise.resolve(this.inner.init?.(this.#options)), this.timeoutMs);
  }

  #failed(error: unknown): void {
    this.#failing = true;
    this.health.failed(error);
  }

  #recovered(): void {
    this.#failing = false;
    this.health.answered();
  }
}
