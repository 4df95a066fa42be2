import type { Database, Statement } from "better-sqlite3";

/** The shared read transactions of this process's stores, by the real path of their file. */
const ON_FILE = new Map<string, Set<SharedReadTransaction>>();

/**
 * One read transaction for the reads that run in one go. Outside a transaction every statement is
 * a transaction of its own, and in WAL mode each one locks and unlocks the shared-memory index and
 * checks the file (three system calls: about 4 µs, where the lookup itself takes 1.3). A request's
 * reads run without a real wait between them (better-sqlite3 is synchronous; only resolved promises
 * separate them), so they share one transaction, ended once the current run of callbacks and
 * microtasks is over (`process.nextTick`), before the event loop takes the next request's input.
 * Every request whose reads join it had arrived before it began, so none reads a state older than
 * its own arrival. A write, or any statement kysely runs (its transactions among them), ends the
 * shared transaction first, so a write never runs in it and reads after it see it.
 *
 * Calls made directly, not by requests, may follow one another in one run of microtasks: a write
 * through another connection to the same file in this process (a second store on it) therefore
 * ends this one's shared transaction once it has run, so a read that follows sees it. Another
 * process's writes are seen from the next turn of the event loop.
 */
export class SharedReadTransaction {
  #open = false;
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #rollback: Statement;
  readonly #neighbors: Set<SharedReadTransaction> | undefined;
  readonly #file: string | undefined;

  /** `file`: the database file's real path, shared by the stores on it; undefined in memory. */
  constructor(
    private readonly database: Database,
    file?: string,
  ) {
    this.#begin = database.prepare("begin");
    this.#commit = database.prepare("commit");
    this.#rollback = database.prepare("rollback");
    this.#file = file;
    if (file === undefined) return;
    this.#neighbors = ON_FILE.get(file) ?? new Set();
    ON_FILE.set(file, this.#neighbors);
    this.#neighbors.add(this);
  }

  /** After a statement that may have written (a commit included): the other stores' reads move on. */
  readonly wrote = (): void => {
    if (this.#neighbors === undefined || this.#neighbors.size === 1) return;
    for (const neighbor of this.#neighbors) if (neighbor !== this) neighbor.#endOnTick();
  };

  /** When the store closes: ends the transaction and leaves the file's stores. */
  readonly close = (): void => {
    this.end();
    this.#neighbors?.delete(this);
    if (this.#file !== undefined && this.#neighbors?.size === 0) ON_FILE.delete(this.#file);
  };

  /** Whether statements may run at once: no transaction is open but, perhaps, this one. */
  get free(): boolean {
    return this.#open || !this.database.inTransaction;
  }

  /** Before a read-only statement: joins the shared transaction, opening it if none is open. */
  beforeRead(): void {
    if (this.#open || this.database.inTransaction) return;
    this.#begin.run();
    this.#open = true;
    // Node runs the tick queue before the microtasks, so a tick queued from outside them would end
    // the transaction before the awaits that follow; queued from a microtask, it runs after them all.
    queueMicrotask(this.#endAfterMicrotasks);
  }

  readonly #endAfterMicrotasks = () => process.nextTick(this.#endOnTick);

  /**
   * As `end`, where nothing could catch a failure: it tries again at each turn of the event loop
   * (reads would otherwise keep joining an old snapshot), as does the next statement that needs it over.
   */
  readonly #endOnTick = () => {
    try {
      this.end();
    } catch {
      setImmediate(this.#endOnTick);
    }
  };

  /**
   * Before anything but a read (a write, kysely's statements, closing): the shared transaction ends.
   * It wrote nothing, so a commit that fails is rolled back; one that cannot be rolled back either
   * stays open, and the next call tries again and throws.
   */
  readonly end = (): void => {
    if (!this.#open) return;
    if (this.database.inTransaction) {
      try {
        this.#commit.run();
      } catch {
        if (this.database.inTransaction) this.#rollback.run();
      }
    }
    this.#open = false;
  };
}
