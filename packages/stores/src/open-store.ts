import { FileDirectory } from "@service-api/adapters-node";
import {
  DEFAULT_FIELD_COUNT_FOLDING,
  DEFAULT_POOL,
  isPostgresUrl,
  openPostgresStore,
  type PostgresPoolOptions,
} from "@service-api/adapters-postgres";
import { DEFAULT_DATABASE_URL, openSqliteStore, type SqliteStoreOptions } from "@service-api/adapters-sqlite";
import type { Store, StoreMonitor } from "@service-api/ports";
import { checkStoreOptions } from "./check-store-options.js";
import { withFileDirectory } from "./with-file-directory.js";

export type StoreKind = "postgres" | "sqlite";

export interface StoreOptions {
  /**
   * `postgres://…` or `postgresql://…` for PostgreSQL; a path or `file:` URL for SQLite. Any other
   * scheme (`mysql://`, `sqlite:`, …) and the empty string are refused; a file whose name starts
   * with a word and a colon is written `./name:…`. Default: the SQLite file under ./data.
   */
  databaseUrl?: string;
  /** Pool bounds, for PostgreSQL. */
  pool?: Partial<PostgresPoolOptions>;
  /** Tuning, for SQLite. */
  sqlite?: SqliteTuning;
  /** Tuning, for PostgreSQL. */
  postgres?: Partial<PostgresTuning>;
  /**
   * A directory for uploaded files' bytes (`FILES_DIR`), made when it is missing; resolved against
   * the working directory. Unset, the bytes are kept in the database. A directory of its own: its
   * sweep removes what no file's row names. Instances on one PostgreSQL must share it.
   */
  filesDir?: string;
  /** Told of outages, recoveries and dropped connections, and of failed sweeps of `filesDir`. */
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

/**
 * Opens the store a database URL names, with its migrations applied. Bad options (see
 * `checkStoreOptions`) reject with a `StoreOptionsError` before anything connects or touches the disk;
 * a `filesDir` that is not a directory this process can write in, with a `FileDirectoryError`
 * before the database is opened.
 */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  checkStoreOptions(options);
  const { databaseUrl = DEFAULT_DATABASE_URL, pool = {}, sqlite, postgres = {}, filesDir, monitor } = options;
  const files = filesDir === undefined ? undefined : await FileDirectory.open(filesDir);
  const { fieldCountFoldMs } = postgres;
  const fieldCountFolding =
    fieldCountFoldMs === undefined ? {} : fieldCountFoldMs === 0 ? false : { intervalMs: fieldCountFoldMs };
  // A bound given as undefined keeps its default: spread over DEFAULT_POOL, it would replace it.
  const bounds = Object.fromEntries(Object.entries(pool).filter(([, value]) => value !== undefined));
  const store = await (storeKindOf(databaseUrl) === "postgres"
    ? openPostgresStore({ databaseUrl, pool: bounds, monitor, fieldCountFolding })
    : openSqliteStore({ ...sqlite, databaseUrl, monitor }));
  return files ? withFileDirectory(store, files, { monitor }) : store;
}

const decodedOrAsIs = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * A URL safe to log: its passwords replaced, in the user part (up to the authority's last `@`, as
 * URL parsers read it, so a password holding an `@` is hidden whole) and in the query
 * (`?password=`, `sslpassword=`, which pg reads as well).
 */
export function redactedDatabaseUrl(databaseUrl: string): string {
  const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(databaseUrl)?.[0];
  if (!scheme) return databaseUrl;
  const rest = databaseUrl.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  const userPart = at >= 0 && colon >= 0 && colon < at ? `${authority.slice(0, colon)}:***` : undefined;
  const redacted = userPart === undefined ? rest : `${userPart}${rest.slice(at)}`;
  return (
    scheme +
    redacted.replace(/([?&])([^=&#]*)=([^&#]*)/g, (pair, separator: string, key: string) =>
      /password/i.test(decodedOrAsIs(key)) ? `${separator}${key}=***` : pair,
    )
  );
}
