/**
 * Commits that wait for one flush together (group commit, in the process): `wait` resolves once a
 * flush that started after the call has ended. While one flush runs, every caller that comes waits
 * for the next, which starts when it ends: n callers cost at most two flushes, not n.
 *
 * A flush only vouches for commits made on the server it ran on, before it. So a flush that fails
 * fails its callers and those waiting for the next one (their commits are as much in doubt), and a
 * caller is refused when the driver lost a connection between its `mark` and the end of its flush:
 * the server may have restarted, or another taken its place, in between.
 */
export class GroupFlush {
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(
    private readonly flush: () => Promise<unknown>,
    /** How many connections the driver has lost so far (never going down). */
    private readonly connectionsLost: () => number = () => 0,
  ) {}

  /** Taken before the write whose commit the flush is to cover: `wait` compares it. */
  mark(): number {
    return this.connectionsLost();
  }

  /**
   * Resolves after a flush that started after this call, if no connection was lost since `mark`;
   * rejects with that flush's failure, or a `FlushNotVouchedError`.
   */
  async wait(mark: number): Promise<void> {
    await this.#flushed();
    if (this.connectionsLost() !== mark) throw new FlushNotVouchedError();
  }

  #flushed(): Promise<void> {
    if (!this.#running) return this.#start();
    // The running flush may have started before the caller's commit: the next one covers it.
    this.#next ??= this.#running.then(
      () => {
        this.#next = undefined;
        return this.#start();
      },
      (error: unknown) => {
        this.#next = undefined;
        throw error;
      },
    );
    return this.#next;
  }

  #start(): Promise<void> {
    const running: Promise<void> = Promise.resolve()
      .then(this.flush)
      .then(
        () => this.#ended(running),
        (error: unknown) => {
          this.#ended(running);
          throw error;
        },
      );
    this.#running = running;
    return running;
  }

  #ended(running: Promise<void>): void {
    if (this.#running === running) this.#running = undefined;
  }
}

/** A flush ended, but a connection was lost meanwhile: it may not cover the caller's commit. */
export class FlushNotVouchedError extends Error {
  override readonly name = "FlushNotVouchedError";

  constructor() {
    super("a connection to the database was lost between a commit and the flush meant to cover it");
  }
}
