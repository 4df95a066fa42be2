import { createClient, type RedisClientType } from "redis";

/** How long the client tries to connect before it counts as unreachable. */
const CONNECT_TIMEOUT_MS = 1_000;
/**
 * How long Redis may leave a command unanswered, or the client unready, before the client is
 * replaced: longer than a limit store's time-out (1 s), so a slow answer is not a stall.
 */
export const STALL_MS = 2_000;

interface Opened {
  client: RedisClientType;
  /** Commands sent and not yet answered or failed. */
  waiting: number;
  /** Since when the oldest unanswered command, or the last answer, is. */
  quietSince: number;
  /** When the client was last seen ready, or opened. */
  readySeen: number;
}

/**
 * One Redis client, replaced when it stalls. A server that accepts the connection and then answers
 * nothing (a partition, a half-open connection, a proxy holding it) leaves node-redis waiting
 * without a time-out: in its handshake, or for replies while every command sent keeps the socket
 * busy. It never reconnects, and limits stayed off after Redis came back. A watchdog replaces a
 * client whose commands have gone unanswered, or that has not been ready, for `STALL_MS`.
 */
export class RedisConnection {
  #opened: Opened;
  readonly #watchdog: NodeJS.Timeout;
  /** Settles once the first client has connected or its wait ran out; never fails. */
  readonly firstConnection: Promise<void>;

  constructor(
    private readonly url: string,
    firstConnectionWaitMs: number,
  ) {
    const [opened, connecting] = this.#open();
    this.#opened = opened;
    this.firstConnection = settledWithin(connecting, firstConnectionWaitMs);
    this.#watchdog = setInterval(this.#check, STALL_MS / 4).unref();
  }

  async send(command: string[]): Promise<unknown> {
    const opened = this.#opened;
    if (opened.waiting === 0) opened.quietSince = performance.now();
    opened.waiting += 1;
    try {
      const reply = await opened.client.sendCommand(command);
      opened.quietSince = performance.now();
      return reply;
    } finally {
      opened.waiting -= 1;
    }
  }

  close(): void {
    clearInterval(this.#watchdog);
    this.#opened.client.destroy();
  }

  #open(): [Opened, Promise<unknown>] {
    const client = createClient({
      url: this.url,
      // Fail at once while disconnected rather than queue: a lost Redis holds no request up.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
      },
    }) as RedisClientType;
    // An unheard "error" event would end the process; the fail-open store reports failures once.
    client.on("error", () => {});
    const connecting = client.connect();
    connecting.catch(() => {});
    const now = performance.now();
    return [{ client, waiting: 0, quietSince: now, readySeen: now }, connecting];
  }

  readonly #check = () => {
    const opened = this.#opened;
    const now = performance.now();
    if (opened.client.isReady) opened.readySeen = now;
    const unanswered = opened.waiting > 0 && now - opened.quietSince > STALL_MS;
    const unready = now - opened.readySeen > STALL_MS;
    if (!unanswered && !unready) return;
    [this.#opened] = this.#open();
    // Its unanswered commands fail now; their callers have let their requests through already.
    opened.client.destroy();
  };
}

/** Settles when `work` does or `ms` have passed, whichever comes first; never fails. */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(settle, settle);
  });
}
