import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type DatabaseSchema, kyselyStore, runCompiledDirectly } from "@service-api/adapters-kysely";
import type { Store } from "@service-api/ports";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { sqliteDirectExecutor } from "./direct-executor.js";
import { sqliteMigrations } from "./migrations/index.js";
import { sqlitePathOf } from "./sqlite-location.js";
import { withStatementCache } from "./statement-cache.js";

export interface SqliteStoreOptions {
  /** A path or `file:` URL; see {@link sqlitePathOf}. */
  databaseUrl: string;
  /** How long a write waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number;
  /**
   * Bytes of the file SQLite reads through a memory map instead of read calls (`PRAGMA mmap_size`);
   * 0, the default, maps nothing. SQLite caps it at its build's limit (2 GiB here). Mapped pages
   * are the OS's shared file cache, but they count in the process's resident memory.
   */
  mmapSizeBytes?: number;
  /** Called with every statement run, with its parameters: for diagnostics and tests. */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/**
 * Opens (creating it if needed) the SQLite database, applies pending migrations and returns its
 * repositories. WAL lets readers run beside a writer; foreign keys are enforced.
 */
export async function openSqliteStore({
  databaseUrl,
  busyTimeoutMs = 5000,
  mmapSizeBytes = 0,
  onQuery,
}: SqliteStoreOptions): Promise<Store> {
  const path = sqlitePathOf(databaseUrl);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma(`mmap_size = ${Math.trunc(mmapSizeBytes)}`);

  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    log: onQuery && ((event) => onQuery(event.query.sql, event.query.parameters)),
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  runCompiledDirectly(db, sqliteDirectExecutor(database, onQuery));
  return kyselyStore(db);
}

async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  const { error } = await new Migrator({ db, provider: sqliteMigrations }).migrateToLatest();
  if (error) throw new Error("SQLite migration failed", { cause: error });
}
