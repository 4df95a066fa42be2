import type { DatabaseSchema } from "@service-api/adapters-kysely";
import type Database from "better-sqlite3";
import { Kysely } from "kysely";
import { PlannedOnceSqliteDialect } from "./planned-once-dialect.js";
import { openReadOnlyConnection, type ReadOnlyConnectionOptions } from "./read-only-connection.js";
import { withStatementCache } from "./statement-cache.js";

export interface SnapshotReaderOptions extends ReadOnlyConnectionOptions {
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/** Idle readers kept for the next snapshots: as many as requests usually read at once. */
const KEPT_READERS = 4;

interface Reader {
  db: Kysely<DatabaseSchema>;
  database: Database.Database;
}

/**
 * Read-only connections of their own to the store's file, one per snapshot while it runs. The
 * store's one connection stays free for every other call while a long snapshot (an export) reads,
 * as WAL mode lets readers run beside a writer; and a write through a snapshot fails
 * (`SQLITE_READONLY`) instead of landing. A connection is kept for the next snapshot once its own
 * ends (up to `KEPT_READERS` idle), with its prepared statements: opening one and preparing its
 * statements costs more than a retrieval's reads.
 */
export class SnapshotReaders {
  readonly #idle: Reader[] = [];
  #closed = false;

  constructor(
    private readonly path: string,
    private readonly options: SnapshotReaderOptions,
  ) {}

  /** A reader for one snapshot, to `release` once it ends. */
  acquire(): { db: Kysely<DatabaseSchema>; release: () => Promise<void> } {
    const reader = this.#idle.pop() ?? this.#open();
    return { db: reader.db, release: () => this.#release(reader) };
  }

  /** Closes the idle readers; those in use close when released. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((reader) => reader.db.destroy()));
  }

  async #release(reader: Reader): Promise<void> {
    // One whose transaction could not end is not reused: it would read its old snapshot.
    const reusable = !this.#closed && this.#idle.length < KEPT_READERS && !reader.database.inTransaction;
    if (reusable) this.#idle.push(reader);
    else await reader.db.destroy();
  }

  #open(): Reader {
    const { onQuery } = this.options;
    const database = openReadOnlyConnection(this.path, this.options);
    const db = new Kysely<DatabaseSchema>({
      // An export runs the same few statements for every document; a retrieval, every time.
      dialect: new PlannedOnceSqliteDialect({ database: withStatementCache(database) }),
      log: onQuery && ((event) => onQuery(event.query.sql, event.query.parameters)),
    });
    return { db, database };
  }
}
