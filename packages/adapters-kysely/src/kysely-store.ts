import { StoreUnavailableError } from "@service-api/domain";
import type { ConnectionCounts, Store } from "@service-api/ports";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { createKyselyRepositories } from "./create-kysely-repositories.js";
import { GroupFlush } from "./group-flush.js";
import { LockWaits } from "./lock-waits.js";
import { OpenCalls } from "./open-calls.js";
import type { DatabaseSchema } from "./schema.js";
import type { SqlFeatures } from "./sql-features.js";
import { guarded, guardRepositories, type StoreGuard } from "./store-guard.js";

export interface KyselyStoreOptions extends StoreGuard {
  /** What the repositories' SQL needs to know of the database. */
  features: SqlFeatures;
  /** The pool's state, for a driver with a pool. */
  connections?: () => ConnectionCounts;
  /**
   * The access revision when the driver knows it without a query (PostgreSQL hears of each change);
   * undefined when it must be read.
   */
  knownAccessRevision?: () => number | undefined;
  /**
   * How many connections the driver has lost since the store opened: a commit flush is trusted
   * only when none was lost between the write and the flush's end (`GroupFlush`).
   */
  connectionsLost?: () => number;
  /**
   * What a transaction of many rows (`TransactionOptions.manyRows`) runs first and last so that
   * its counts are kept once, at its end (PostgreSQL); absent, it counts as any other.
   */
  countsOnce?: { begin: RawBuilder<unknown>; end: RawBuilder<unknown> };
  /** Run when the store closes, before the database is let go. */
  onClose?: () => Promise<void>;
  /**
   * A connection of its own for one snapshot, released when it ends: for a driver with one
   * connection (SQLite), which a long snapshot would otherwise hold from every other call. Absent,
   * a snapshot takes a connection of `db` (PostgreSQL's pool has more).
   */
  snapshotReaders?: { acquire(): { db: Kysely<DatabaseSchema>; release(): Promise<void> } };
}

/**
 * A store over a kysely instance whose schema is migrated: the repositories, transactions on one
 * connection, snapshots (read-only repeatable-read transactions), a ping, and `close`, which
 * destroys the instance (and its driver's connections).
 * Failures to reach the database, as `options.isUnavailable` tells them, become `StoreUnavailableError`s;
 * a transaction or call that loses a conflict (`options.isConflict`) runs again.
 */
export function kyselyStore(db: Kysely<DatabaseSchema>, storeOptions: KyselyStoreOptions): Store {
  const options = { ...storeOptions, calls: new OpenCalls(), lockWaits: new LockWaits() };
  const early = options.features.earlyLockRelease;
  // Writes that release their locks early wait for the flush together; in a transaction, none do
  // (`createKyselyRepositories` leaves it out there).
  const commitFlush = early && new GroupFlush(() => early.flush(db), options.connectionsLost);
  const repositories = (executor: Kysely<DatabaseSchema>, inTransaction: boolean) =>
    guardRepositories(
      createKyselyRepositories(executor, options.features, {
        knownAccessRevision: options.knownAccessRevision,
        commitFlush,
      }),
      options,
      { inTransaction },
    );
  let closing: Promise<void> | undefined;
  return {
    repositories: repositories(db, false),
    transaction: (work, { manyRows = false } = {}) => {
      const counts = manyRows ? options.countsOnce : undefined;
      return guarded(
        options,
        () =>
          db.transaction().execute(async (trx) => {
            if (counts) await counts.begin.execute(trx);
            const result = await work(repositories(trx, true));
            if (counts) await counts.end.execute(trx);
            return result;
          }),
        true,
      );
    },
    // Never run again on a conflict: `work` may have written elsewhere (an export, its file).
    // PostgreSQL reads the state of the first statement and refuses writes; SQLite's driver
    // ignores both settings, and its `begin`, on a read-only connection, is a read transaction (WAL).
    snapshot: (work) =>
      guarded(options, async () => {
        const reader = options.snapshotReaders?.acquire();
        try {
          return await (reader?.db ?? db)
            .transaction()
            .setIsolationLevel("repeatable read")
            .setAccessMode("read only")
            .execute((trx) => work(repositories(trx, true)));
        } catch (error) {
          // Not run again (see above): a conflict (a connection the server ended for idleness,
          // say) is a store that cannot serve now, as a transaction that keeps losing one is.
          throw options.isConflict?.(error) ? new StoreUnavailableError({ cause: error }) : error;
        } finally {
          await reader?.release();
        }
      }),
    ping: () =>
      guarded(options, async () => {
        await sql`select 1`.execute(db);
      }),
    ...(options.connections && { connections: options.connections }),
    // Calls made before settle first (a pool's queued ones included); calls made after are refused.
    close: () => {
      closing ??= options.calls
        .close()
        .then(() => options.onClose?.())
        .then(() => db.destroy());
      return closing;
    },
  };
}
