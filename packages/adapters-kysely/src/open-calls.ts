import { StoreUnavailableError } from "@service-api/domain";

/** A call made on a store after its `close` began: refused, never run. */
export class StoreClosedError extends StoreUnavailableError {
  constructor() {
    super({ cause: new Error("The store is closed.") });
  }
}

/**
 * The calls a store is running (repository calls outside a transaction, transactions, pings), so
 * that closing it refuses new ones and waits for these: a call made before `close` settles as it
 * would have, one made after is a `StoreClosedError`, and nothing reaches a closed driver.
 */
export class OpenCalls {
  #running = 0;
  #closing = false;
  #idle: (() => void) | undefined;

  /** Whether closing has begun: a call waiting for something that may take long stops waiting. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Before a call: refuses it once closing has begun. */
  begin(): void {
    if (this.#closing) throw new StoreClosedError();
    this.#running += 1;
  }

  /** After a call, however it ended. */
  end(): void {
    this.#running -= 1;
    if (this.#running === 0) this.#idle?.();
  }

  /** Refuses calls from now on; resolves once the running ones have ended. */
  close(): Promise<void> {
    this.#closing = true;
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = resolve;
    });
  }
}
