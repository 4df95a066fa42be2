import type Database from "better-sqlite3";
import { openReadOnlyConnection, type ReadOnlyConnectionOptions } from "./read-only-connection.js";
import { SharedReadTransaction } from "./shared-read-transaction.js";

/**
 * A read-only connection of its own to the store's file, for the reads that come while kysely holds
 * the store's connection for a transaction (a publish of 35,000 chunks writes for seconds): they
 * read the last commit, as another process would, instead of waiting for the transaction's end.
 * Opened at first need. Its reads share one transaction per run of the event loop, as the store's
 * own do, ended by any write on the file from this process, so a read after a commit sees it.
 */
export class BesideReader {
  #opened: { database: Database.Database; reads: SharedReadTransaction } | undefined;

  constructor(
    private readonly path: string,
    private readonly options: ReadOnlyConnectionOptions,
  ) {}

  /** `sql` as a statement of this connection, or undefined where it would write. */
  prepare(sql: string): ((parameters: readonly unknown[]) => unknown[]) | undefined {
    const { database, reads } = this.#open();
    const statement = database.prepare(sql);
    if (!statement.readonly || !statement.reader) return undefined;
    return (parameters) => {
      reads.beforeRead();
      return statement.all(parameters) as unknown[];
    };
  }

  close(): void {
    if (!this.#opened) return;
    this.#opened.reads.close();
    this.#opened.database.close();
    this.#opened = undefined;
  }

  #open() {
    if (this.#opened) return this.#opened;
    const database = openReadOnlyConnection(this.path, this.options);
    this.#opened = { database, reads: new SharedReadTransaction(database, this.path) };
    return this.#opened;
  }
}
