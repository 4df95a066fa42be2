import {
  DEFAULT_FIELD_COUNT_FOLDING,
  DEFAULT_POOL,
  isPostgresUrl,
  openPostgresStore,
  type PostgresPoolOptions,
} from "@service-api/adapters-postgres";
import { DEFAULT_DATABASE_URL, openSqliteStore, type SqliteStoreOptions } from "@service-api/adapters-sqlite";
import type { Store, StoreMonitor } from "@service-api/ports";

export type StoreKind = "postgres" | "sqlite";

export interface StoreOptions {
  /** `postgres://…` for PostgreSQL; a path or `file:` URL for SQLite. Default: the SQLite file under ./data. */
  databaseUrl?: string;
  /** Pool bounds, for PostgreSQL. */
  pool?: Partial<PostgresPoolOptions>;
  /** Tuning, for SQLite. */
  sqlite?: SqliteTuning;
  /** Tuning, for PostgreSQL. */
  postgres?: Partial<PostgresTuning>;
  /** Told of outages, recoveries and dropped connections. */
  monitor?: StoreMonitor;
}

/** What can be tuned of a PostgreSQL store, besides its pool. */
export interface PostgresTuning {
  /** How often an instance folds fields' counter rows into their fields, in ms; 0 never. */
  fieldCountFoldMs: number;
}

export const DEFAULT_POSTGRES_TUNING: PostgresTuning = {
  fieldCountFoldMs: DEFAULT_FIELD_COUNT_FOLDING.intervalMs,
};

/** What can be tuned of a SQLite store. */
export type SqliteTuning = Pick<SqliteStoreOptions, "mmapSizeBytes" | "busyTimeoutMs" | "synchronous">;

export { DEFAULT_DATABASE_URL, DEFAULT_POOL, type PostgresPoolOptions };

/** Which store a database URL names. The only place in the project that decides it. */
export function storeKindOf(databaseUrl: string): StoreKind {
  return isPostgresUrl(databaseUrl) ? "postgres" : "sqlite";
}

/** Opens the store a database URL names, with its migrations applied. */
export function openStore({
  databaseUrl = DEFAULT_DATABASE_URL,
  pool,
  sqlite,
  postgres: { fieldCountFoldMs } = {},
  monitor,
}: StoreOptions = {}): Promise<Store> {
  const fieldCountFolding =
    fieldCountFoldMs === undefined ? {} : fieldCountFoldMs === 0 ? false : { intervalMs: fieldCountFoldMs };
  return storeKindOf(databaseUrl) === "postgres"
    ? openPostgresStore({ databaseUrl, pool, monitor, fieldCountFolding })
    : openSqliteStore({ ...sqlite, databaseUrl, monitor });
}

/** A URL safe to log: the password, if any, replaced. */
export function redactedDatabaseUrl(databaseUrl: string): string {
  return databaseUrl.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
