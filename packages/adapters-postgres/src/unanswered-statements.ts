import type { Socket } from "node:net";
import pg from "pg";

/**
 * How much longer than the statement time-out a statement may go without a byte of answer before
 * the server is asked about it. Past the time-out the server has cancelled a running statement and
 * its error is on the way: what remains is the server noticing the cancel, a round trip and this
 * process reading it (a busy event loop), a few to a few hundred ms, whatever the time-out. Not a
 * commit, though: PostgreSQL lifts the time-out before it commits, so a slow flush or a synchronous
 * standby's wait outlasts it. Hence the question before any cut (`ActiveBackends`).
 */
export const UNANSWERED_GRACE_MS = 1_000;

/** How long the question to the server may take; no answer within it means it cannot be reached. */
export const PROBE_TIMEOUT_MS = 2_000;

/**
 * Asks the server, on a connection of its own, which of these backends (by process id) are still
 * at work on a statement; undefined when it cannot be reached (the network stalled).
 */
export type ActiveBackends = (processIds: number[]) => Promise<ReadonlySet<number> | undefined>;

/** The longest pause between two sweeps; a short bound sweeps more often (a quarter of it). */
const MAX_SWEEP_INTERVAL_MS = 1_000;

/** The part of pg 8's `Client` the sweep reads: the query it sent and waits on, if any. */
interface ClientInternals {
  _activeQuery?: unknown;
  connection: { stream: unknown };
  /** The backend's process id, from its key data. */
  processID?: number | null;
}

/** A connection's state as the last sweeps saw it. */
interface Watched {
  /** The connection's own TCP socket (under TLS too, which pg layers over it): bytes read, destroy. */
  socket: Socket;
  /** The query waiting for an answer, or null. */
  query: unknown;
  bytesRead: number;
  /** Since when (`performance.now()`) `query` has waited and nothing was read. */
  since: number;
}

/**
 * The error a statement fails with when its connection went silent: PostgreSQL is unreachable
 * (`isPostgresUnavailable`), the connection is closed and the pool drops it.
 */
export class UnansweredStatementError extends Error {
  override readonly name = "UnansweredStatementError";
  constructor(readonly boundMs: number) {
    super(
      `PostgreSQL did not answer a statement within ${boundMs} ms (its statement time-out and ${UNANSWERED_GRACE_MS} ms): the network or the server stalled; the connection was closed`,
    );
  }
}

/**
 * Gives up statements that get no answer: on a connection of the pool waiting for an answer, no
 * byte for `statementTimeoutMs` + `UNANSWERED_GRACE_MS`, and then no word from the server either,
 * means the network to PostgreSQL stalled (a partition, a stalled proxy: the TCP connection stays
 * up and nothing comes back). The server is asked first, on a connection of its own
 * (`ActiveBackends`), whether the silent connections' backends are still at work (a commit waiting
 * on a slow flush or a synchronous standby, which no time-out cancels): those are left to finish,
 * their clocks started again. The others, or all when the server cannot be reached within
 * `PROBE_TIMEOUT_MS`, have their socket destroyed: the statement fails (`UnansweredStatementError`,
 * so the store answers 503), the pool drops the connection, and the next call connects afresh.
 * Silence is what counts, not the statement's age: an answer still arriving, however slowly, is
 * never cut.
 *
 * A connection that stalled says the others may have: the idle ones (`idleClients`) are closed
 * with it, so that the next call connects afresh (and fails within the connect time-out while the
 * network is down) rather than wait out the bound on a connection as silent, and so that once the
 * network heals the next call is served. A quiet but healthy idle connection costs a reconnect.
 *
 * One sweep every quarter of the bound (at most every second) looks at each connection: the query
 * pg has in flight and the bytes its socket has read. Nothing is done per statement, so the hot
 * path is untouched; the price is precision: a silent statement fails between the bound and the
 * bound plus two sweeps after it was sent. The sweep runs only while connections are open, never
 * keeps the process alive, and stops for good with `stop`.
 *
 * With no statement time-out (`statementTimeoutMs` 0) a statement may rightly run for ever: nothing
 * is watched, and a statement on a stalled connection waits until the network heals.
 */
export class UnansweredStatements {
  /** How long a waiting statement may go without a byte, in ms; 0 when nothing is watched. */
  readonly boundMs: number;
  readonly sweepMs: number;
  readonly #watched = new Map<pg.Client, Watched>();
  #timer: NodeJS.Timeout | undefined;
  #lastSweep = 0;
  #stopped = false;

  #asking = false;

  constructor(
    statementTimeoutMs: number,
    /** The connections idle in the pool now: closed when a statement went unanswered. */
    private readonly idleClients: () => Iterable<pg.Client> = () => [],
    /** Which backends are still at work; without it, nothing is at work (every silent one is cut). */
    private readonly activeBackends: ActiveBackends = async () => new Set(),
  ) {
    this.boundMs = statementTimeoutMs > 0 ? statementTimeoutMs + UNANSWERED_GRACE_MS : 0;
    this.sweepMs = Math.min(MAX_SWEEP_INTERVAL_MS, Math.ceil(this.boundMs / 4));
  }

  /**
   * pg's pool's `Client` option: pg's client, each watched from its creation on the socket pg's
   * `stream` option made it (the pool's `connect` event would come after TLS wrapped it). Undefined
   * when nothing is watched: the pool keeps pg's own.
   */
  clientClass(): typeof pg.Client | undefined {
    if (!this.boundMs) return undefined;
    const watch = (client: pg.Client) => this.#watch(client);
    return class WatchedClient extends pg.Client {
      constructor(config?: string | pg.ClientConfig) {
        super(config);
        watch(this);
      }
    };
  }

  /** Stops sweeping, for good: the store is closing. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#watched.clear();
  }

  /** How many connections are watched: for tests. */
  get size(): number {
    return this.#watched.size;
  }

  #watch(client: pg.Client): void {
    const socket = (client as unknown as ClientInternals).connection.stream as Socket;
    if (this.#stopped || socket.destroyed) return;
    this.#watched.set(client, { socket, query: null, bytesRead: 0, since: 0 });
    socket.once("close", () => {
      this.#watched.delete(client);
      if (this.#watched.size === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    });
    if (!this.#timer) {
      this.#lastSweep = performance.now();
      this.#timer = setInterval(() => this.#sweep(), this.sweepMs).unref();
    }
  }

  #sweep(): void {
    const now = performance.now();
    // A sweep this late means the event loop was blocked: an answer that came meanwhile may not be
    // read yet, so every clock starts again rather than count the block as silence.
    const late = now - this.#lastSweep > 2 * this.sweepMs;
    this.#lastSweep = now;
    const silent: [pg.Client, Watched][] = [];
    for (const [client, seen] of this.#watched) {
      const query = (client as unknown as ClientInternals)._activeQuery ?? null;
      const { bytesRead } = seen.socket;
      if (late || query === null || query !== seen.query || bytesRead !== seen.bytesRead) {
        seen.query = query;
        seen.bytesRead = bytesRead;
        seen.since = now;
      } else if (now - seen.since >= this.boundMs && !seen.socket.destroyed) silent.push([client, seen]);
    }
    if (silent.length > 0 && !this.#asking) this.#ask(silent);
  }

  /** Asks the server about the silent connections, then cuts those it is not at work on. */
  #ask(silent: [pg.Client, Watched][]): void {
    this.#asking = true;
    const processIds = silent.map(([client]) => (client as unknown as ClientInternals).processID ?? -1);
    this.activeBackends(processIds)
      .catch(() => undefined)
      .then((active) => {
        this.#asking = false;
        if (this.#stopped) return;
        let stalled = false;
        silent.forEach(([client, seen], index) => {
          // Answered meanwhile, or cut: nothing to do.
          const answered =
            seen.socket.bytesRead !== seen.bytesRead || performance.now() - seen.since < this.boundMs;
          if (this.#watched.get(client) !== seen || seen.socket.destroyed || answered) return;
          if (active?.has(processIds[index]!)) {
            seen.since = performance.now();
            return;
          }
          // pg fails the query with this error, emits it on the client (the monitor hears of a lost
          // connection) and marks it not queryable, so the pool drops it when it comes back.
          seen.socket.destroy(new UnansweredStatementError(this.boundMs));
          stalled = true;
        });
        // Closed without an error: pg emits "Connection terminated unexpectedly", the pool drops them.
        if (stalled && active === undefined)
          for (const client of this.idleClients()) this.#watched.get(client)?.socket.destroy();
      });
  }
}
