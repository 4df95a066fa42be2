import type { Duplex } from "node:stream";
import pg from "pg";
import { ACCESS_CHANNEL } from "./migrations/0008-access-notifications.js";

export interface AccessListenerOptions {
  /** How often the revision is read again on the listening connection, in ms: the longest a lost notification goes unseen. */
  heartbeatMs: number;
  /** How long a heartbeat may take before the connection counts as lost, in ms. */
  heartbeatTimeoutMs: number;
  /** How long to wait before connecting again after the connection is lost, in ms. */
  reconnectMs: number;
}

export const DEFAULT_ACCESS_LISTENER: AccessListenerOptions = {
  heartbeatMs: 2_000,
  heartbeatTimeoutMs: 2_000,
  reconnectMs: 500,
};

const READ_REVISION = "select value from access_revision where id = 1";

/**
 * Keeps the access revision known without a query per request: one connection outside the pool
 * LISTENs for the announcements the access triggers send, and reads the revision when it starts
 * listening, when it hears one, and at every heartbeat (a notification lost with a connection is
 * caught then). An announcement's number is not believed: any role that may connect may NOTIFY,
 * and a forged high number would have kept every grant past its revocation; it only says to read.
 * `revision()` is undefined whenever the revision is not known to be current (not listening, or a
 * read it heard of still under way): callers then read it from the store, so a revocation is never
 * missed.
 */
export class AccessListener {
  #client: pg.Client | undefined;
  /** The revision last read on the current connection. */
  #latest = 0;
  #listening = false;
  /** A read for an announcement under way, and whether another came meanwhile. */
  #reading = false;
  #readAgain = false;
  #schema = "";
  #closed = false;
  #heartbeat: NodeJS.Timeout | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  /** How many times listening started (the first time and after each loss). */
  starts = 0;

  constructor(
    private readonly connectionString: string,
    private readonly options: AccessListenerOptions = DEFAULT_ACCESS_LISTENER,
    /** pg's `stream` option: the socket each connection is made on (by default, a new one). */
    private readonly stream?: () => Duplex,
  ) {}

  /** The latest revision, while listening and read since the last announcement; else undefined. */
  revision(): number | undefined {
    return this.#listening && !this.#reading ? this.#latest : undefined;
  }

  /** Starts listening; a failure is not thrown but retried, and requests read the revision meanwhile. */
  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: "service-api-access-listener",
      keepAlive: true,
      query_timeout: this.options.heartbeatTimeoutMs,
      connectionTimeoutMillis: this.options.heartbeatTimeoutMs * 5,
      stream: this.stream,
    });
    client.on("error", () => this.#lost(client));
    client.on("end", () => this.#lost(client));
    client.on("notification", ({ channel, payload }) => {
      if (channel !== ACCESS_CHANNEL || !payload || this.#client !== client) return;
      if (payload.slice(0, payload.lastIndexOf(" ")) === this.#schema) this.#readAnnounced(client);
    });
    this.#client = client;
    this.#latest = 0;
    this.#reading = false;
    this.#readAgain = false;
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>("select current_schema() as schema");
      this.#schema = rows[0]!.schema;
      await client.query(`listen ${ACCESS_CHANNEL}`);
      // Read after LISTEN: a change committed from here on is announced, an earlier one is in the value.
      this.#latest = await this.#read(client);
      if (this.#client !== client || this.#closed) return;
      this.#listening = true;
      this.starts += 1;
      this.#heartbeat = setInterval(() => this.#beat(client), this.options.heartbeatMs).unref();
    } catch {
      this.#lost(client);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#stop();
    await client?.end().catch(() => {});
  }

  /**
   * Reads the revision an announcement says changed, untrusted until read: the notification comes
   * after its change committed, so the read sees it. Announcements heard meanwhile make one more read.
   */
  #readAnnounced(client: pg.Client): void {
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = true;
    this.#read(client).then(
      (revision) => {
        if (this.#client !== client) return;
        this.#latest = revision;
        this.#reading = false;
        if (this.#readAgain) {
          this.#readAgain = false;
          this.#readAnnounced(client);
        }
      },
      () => this.#lost(client),
    );
  }

  async #read(client: pg.Client): Promise<number> {
    const { rows } = await client.query<{ value: string }>(READ_REVISION);
    return Number(rows[0]!.value);
  }

  #beat(client: pg.Client): void {
    this.#read(client).then(
      (revision) => {
        // Queries on one connection answer in turn: no read begun before this one answers after it.
        if (this.#client === client) this.#latest = revision;
      },
      () => this.#lost(client),
    );
  }

  #stop(): void {
    this.#listening = false;
    this.#client = undefined;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#reconnect);
  }

  /** Stops trusting the revision at once, drops the connection and listens again after a pause. */
  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#stop();
    client.end().catch(() => {});
    if (this.#closed) return;
    this.#reconnect = setTimeout(() => void this.start(), this.options.reconnectMs).unref();
  }
}
