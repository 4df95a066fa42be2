import { StoreUnavailableError } from "@service-api/domain";
import type { StoreMonitor } from "@service-api/ports";
import { HttpError } from "../http/http-error.js";

/** What the opener opens: something closed once, at the end. */
export interface Closable {
  close(): Promise<void>;
}

export interface RetryingOpenerOptions {
  /** How long after a failed attempt the next one may start. */
  backOffMs: number;
  /** Told of each failed attempt (`unavailable`) and of each that opened (`available`). */
  monitor: Pick<StoreMonitor, "unavailable" | "available">;
  /** Milliseconds, as `performance.now()` counts them (the monitor's clock). */
  now?: () => number;
}

export const CLOSED_MESSAGE = "The service API has been closed; it answers no more requests.";

/**
 * Opens what may not open yet (a database not reachable): a first attempt at once, and after a
 * failure another when asked for, no sooner than the back-off, never two at a time. Until it opens,
 * asking answers `StoreUnavailableError`; after `close`, a 503 saying so.
 */
export class RetryingOpener<Opened extends Closable> {
  #opened: Opened | undefined;
  #attempt: Promise<Opened> | undefined;
  #lastFailure: unknown;
  #retryAt = Number.NEGATIVE_INFINITY;
  #closing: Promise<void> | undefined;
  readonly #now: () => number;
  /** The first attempt: what it opened, or its error. */
  readonly first: Promise<Opened>;

  constructor(
    private readonly open: () => Promise<Opened>,
    private readonly options: RetryingOpenerOptions,
  ) {
    this.#now = options.now ?? (() => performance.now());
    this.first = this.#try();
  }

  /** What opened, while open: callers use it at once, with no promise in between. */
  get opened(): Opened | undefined {
    return this.#closing ? undefined : this.#opened;
  }

  /** What opened; waits for an attempt under way, or starts one once the back-off has passed. */
  get(): Promise<Opened> {
    if (this.#closing) return Promise.reject(new HttpError(503, "service_unavailable", CLOSED_MESSAGE));
    if (this.#opened) return Promise.resolve(this.#opened);
    if (!this.#attempt && this.#now() < this.#retryAt)
      return Promise.reject(new StoreUnavailableError({ cause: this.#lastFailure }));
    return (this.#attempt ?? this.#try()).then(
      () => this.get(),
      (error: unknown) => Promise.reject(new StoreUnavailableError({ cause: error })),
    );
  }

  /** Refuses what is asked from now on, waits for an attempt under way, and closes what opened. */
  close(): Promise<void> {
    this.#closing ??= (this.#attempt ?? Promise.resolve()).then(
      () => this.#opened?.close(),
      () => undefined,
    );
    return this.#closing;
  }

  #try(): Promise<Opened> {
    const startedAt = this.#now();
    this.#attempt = this.open().then(
      (opened) => {
        this.#attempt = undefined;
        this.#opened = opened;
        this.options.monitor.available(startedAt);
        return opened;
      },
      (error: unknown) => {
        this.#attempt = undefined;
        this.#lastFailure = error;
        this.options.monitor.unavailable(error instanceof Error ? error : new Error(String(error)));
        this.#retryAt = this.#now() + this.options.backOffMs;
        throw error;
      },
    );
    return this.#attempt;
  }
}
