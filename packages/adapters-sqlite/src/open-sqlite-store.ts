import { mkdirSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import {
  type DatabaseSchema,
  kyselyStore,
  migrationFailed,
  runCompiledDirectly,
} from "@service-api/adapters-kysely";
import type { Store, StoreMonitor } from "@service-api/ports";
import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { BesideReader } from "./beside-reader.js";
import { sqliteDirectExecutor } from "./direct-executor.js";
import { sqliteMigrations } from "./migrations/index.js";
import { PlannedOnceSqliteDialect } from "./planned-once-dialect.js";
import { SharedReadTransaction } from "./shared-read-transaction.js";
import { SnapshotReaders } from "./snapshot-readers.js";
import { sqliteFeatures } from "./sqlite-features.js";
import { ensureWritable, namingTheFile } from "./sqlite-file.js";
import { addSqlFunctions } from "./sqlite-functions.js";
import { sqlitePathOf } from "./sqlite-location.js";
import { isSqliteBusy, isSqliteUnavailable } from "./sqlite-unavailability.js";
import { withStatementCache } from "./statement-cache.js";

export interface SqliteStoreOptions {
  /** A path or `file:` URL; see {@link sqlitePathOf}. */
  databaseUrl: string;
  /**
   * How long a write waits for another connection's lock before failing (then a
   * `StoreUnavailableError`), in ms; default 5000. It waits in pauses that leave the event loop
   * free, so reads, probes and other requests are served meanwhile. SQLite's own busy wait, which
   * sleeps on the thread, serves only opening (which migrates) and the read-only connection of a
   * snapshot (an export), which seldom waits: in WAL mode a reader takes no lock a writer holds.
   */
  busyTimeoutMs?: number;
  /**
   * When a commit waits for the disk (`PRAGMA synchronous`). `normal`, the default in WAL mode,
   * loses no committed write when the process crashes, but may lose the last ones on a power cut
   * or an OS crash; `full` waits for the disk on every commit, so nothing committed is lost then either.
   */
  synchronous?: SqliteSynchronous;
  /**
   * Bytes of the file SQLite reads through a memory map instead of read calls (`PRAGMA mmap_size`);
   * 0, the default, maps nothing. SQLite caps it at its build's limit (2 GiB here). Mapped pages
   * are the OS's shared file cache, but they count in the process's resident memory.
   */
  mmapSizeBytes?: number;
  /** Called with every statement run, with its parameters: for diagnostics and tests. */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /** Told of outages (I/O errors, a full disk) and recoveries, and of locks held past the busy time-out. */
  monitor?: StoreMonitor;
  /**
   * For measuring only: gather a request's reads into one statement, as on PostgreSQL, instead of
   * the separate statements SQLite runs faster (`SqlFeatures.gathersReads`). Default false.
   */
  gatherReads?: boolean;
}

export const SQLITE_SYNCHRONOUS = ["normal", "full"] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

/**
 * Opens (creating it if needed) the SQLite database, applies pending migrations and returns its
 * repositories. WAL lets readers run beside a writer; foreign keys are enforced.
 */
export async function openSqliteStore({
  databaseUrl,
  busyTimeoutMs = 5000,
  mmapSizeBytes = 0,
  synchronous = "normal",
  onQuery,
  monitor,
  gatherReads = false,
}: SqliteStoreOptions): Promise<Store> {
  const path = sqlitePathOf(databaseUrl);
  let database: Database.Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    database = new Database(path);
    // Before WAL mode, which writes too: a read-only file is refused in the words that say so.
    ensureWritable(database, path, busyTimeoutMs);
    database.pragma("journal_mode = WAL");
    database.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
    database.pragma("foreign_keys = ON");
    database.pragma(`mmap_size = ${Math.trunc(mmapSizeBytes)}`);
    addSqlFunctions(database);
  } catch (error) {
    database?.close();
    throw namingTheFile(path, error);
  }

  // kysely's statements (its transactions among them) run after the shared read transaction ends.
  const file = path === ":memory:" ? undefined : realpathSync(path);
  const reads = new SharedReadTransaction(database, file);
  const db = new Kysely<DatabaseSchema>({
    dialect: new PlannedOnceSqliteDialect({
      database: withStatementCache(database, undefined, reads.end, reads.wrote),
    }),
    log: onQuery && ((event) => onQuery(event.query.sql, event.query.parameters)),
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    reads.close();
    await db.destroy();
    throw error;
  }
  // From now on a held lock fails at once, and the store's calls wait for it (`lockRetryMs`).
  database.pragma("busy_timeout = 0");
  const beside = file === undefined ? undefined : new BesideReader(file, { busyTimeoutMs, mmapSizeBytes });
  // A database in memory has no other connection: its snapshots hold the store's one.
  const snapshotReaders =
    file === undefined ? undefined : new SnapshotReaders(path, { busyTimeoutMs, mmapSizeBytes, onQuery });
  runCompiledDirectly(db, sqliteDirectExecutor(database, reads, onQuery, beside));
  const features = gatherReads ? { ...sqliteFeatures, gathersReads: true } : sqliteFeatures;
  return kyselyStore(db, {
    isUnavailable: isSqliteUnavailable,
    isLocked: isSqliteBusy,
    lockRetryMs: busyTimeoutMs,
    monitor,
    features,
    onClose: async () => {
      await snapshotReaders?.close();
      beside?.close();
      reads.close();
    },
    snapshotReaders,
  });
}

/** Whether every migration of this version is applied, and no other (one it does not know is refused). */
async function allApplied(db: Kysely<DatabaseSchema>, migrator: Migrator): Promise<boolean> {
  const known = await migrator.getMigrations();
  if (known.some(({ executedAt }) => executedAt === undefined)) return false;
  const { rows } = await sql<{ applied: number }>`select count(*) as applied from kysely_migration`.execute(
    db,
  );
  return rows[0]?.applied === known.length;
}

/**
 * Applies pending migrations, all in one transaction. Looked for first: the transaction takes the
 * write lock, and a store opening beside another process's long write (an import) waits for it
 * only when there is something to migrate.
 */
async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  const migrator = new Migrator({ db, provider: sqliteMigrations });
  if (await allApplied(db, migrator)) return;
  const { error } = await migrator.migrateToLatest();
  if (error) throw migrationFailed("SQLite", error);
}
