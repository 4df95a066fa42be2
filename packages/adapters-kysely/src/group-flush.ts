/**
 * Commits that wait for one flush together (group commit, in the process): `wait` resolves once a
 * flush that started after the call has ended. While one flush runs, every caller that comes waits
 * for the next, which starts when it ends: n callers cost at most two flushes, not n.
 */
export class GroupFlush {
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(private readonly flush: () => Promise<unknown>) {}

  /** Resolves after a flush that started after this call; rejects with that flush's failure. */
  wait(): Promise<void> {
    if (!this.#running) return this.#start();
    // The running flush may have started before the caller's commit: the next one covers it.
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<void> {
    this.#next = undefined;
    return this.#start();
  }

  #start(): Promise<void> {
    const running = Promise.resolve()
      .then(this.flush)
      .then(
        () => {
          this.#running = undefined;
        },
        (error: unknown) => {
          this.#running = undefined;
          throw error;
        },
      );
    this.#running = running;
    return running;
  }
}
