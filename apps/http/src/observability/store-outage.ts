import type { StoreMonitor } from "@service-api/ports";
import type { Logger } from "pino";

/** What an outage log line says of the error that began it: never a stack, never a connection string. */
const summary = (error: Error) => ({
  name: error.name,
  message: error.message,
  code: (error as { code?: unknown }).code,
});

/**
 * How long the store must go without a failure before a success ends an outage: a store that fails
 * some calls and answers others (a database that only reads) stays in one outage.
 */
export const OUTAGE_SETTLE_MS = 1_000;

/** How often at most a lock held elsewhere is logged while it goes on refusing calls. */
export const LOCK_LOG_INTERVAL_MS = 10_000;

/**
 * Follows whether the store answers. One log line when an outage starts ("store unavailable") and
 * one when it ends ("store available again", with how long it lasted and how many calls failed),
 * however many requests fail between the two.
 */
export class StoreOutage implements StoreMonitor {
  #since: number | undefined;
  #lastFailure = Number.NEGATIVE_INFINITY;
  #failuresInOutage = 0;
  /** Calls that failed because the store could not be reached, since start. */
  failures = 0;
  /** Idle connections the store dropped, since start. */
  connectionsLost = 0;
  /** Calls answered 503 after losing every try to concurrent transactions, since start. */
  conflictsLost = 0;
  /** Calls refused after waiting as long as they may for a lock held elsewhere, since start. */
  lockWaitsExceeded = 0;
  #lockLoggedAt = Number.NEGATIVE_INFINITY;
  #locksUnlogged = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether the store is in an outage. */
  get down(): boolean {
    return this.#since !== undefined;
  }

  unavailable(error: Error): void {
    this.failures += 1;
    this.#failuresInOutage += 1;
    this.#lastFailure = this.now();
    if (this.#since !== undefined) return;
    this.#since = this.#lastFailure;
    this.logger.error({ error: summary(error) }, "store unavailable");
  }

  available(startedAt: number): void {
    if (this.#since === undefined || startedAt < this.#lastFailure + OUTAGE_SETTLE_MS) return;
    const outageMs = Math.round(this.now() - this.#since);
    this.logger.warn({ outageMs, failedCalls: this.#failuresInOutage }, "store available again");
    this.#since = undefined;
    this.#failuresInOutage = 0;
  }

  connectionLost(): void {
    this.connectionsLost += 1;
  }

  /** A call answered 503 because it lost every try to concurrent transactions: one line each. */
  conflictsExhausted(error: Error): void {
    this.conflictsLost += 1;
    this.logger.warn({ error: summary(error) }, "store conflict persisted");
  }

  /**
   * A call refused because a lock held elsewhere (an import's) outlasted its wait (a request's call
   * answers 503). Not an outage; logged at most every {@link LOCK_LOG_INTERVAL_MS}, with the calls
   * refused since the last line (this one included): a long import refuses many.
   */
  lockWaitExceeded(error: Error): void {
    this.lockWaitsExceeded += 1;
    this.#locksUnlogged += 1;
    const now = this.now();
    if (now < this.#lockLoggedAt + LOCK_LOG_INTERVAL_MS) return;
    this.logger.warn(
      { error: summary(error), refusedCalls: this.#locksUnlogged },
      "store lock wait exceeded",
    );
    this.#lockLoggedAt = now;
    this.#locksUnlogged = 0;
  }

  /** Logged at warn, but in an outage, whose own line already says why. */
  backgroundTaskFailed(task: string, error: Error): void {
    if (this.#since !== undefined) return;
    this.logger.warn({ task, error: summary(error) }, "store upkeep failed");
  }
}
