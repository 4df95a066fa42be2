import {
  DEFAULT_POOL,
  MAX_FIELD_COUNT_FOLD_INTERVAL_MS,
  type PostgresPoolOptions,
} from "@service-api/adapters-postgres";
import {
  DEFAULT_DATABASE_URL,
  SQLITE_SYNCHRONOUS,
  type SqliteSynchronous,
} from "@service-api/adapters-sqlite";
import {
  DEFAULT_POSTGRES_TUNING,
  type PostgresTuning,
  type SqliteTuning,
  type StoreOptions,
} from "./open-store.js";

/** The environment variables of the store, with the pool bound each one sets. */
const POOL_VARIABLES: Record<string, keyof PostgresPoolOptions> = {
  DATABASE_POOL_MAX: "max",
  DATABASE_CONNECT_TIMEOUT_MS: "connectionTimeoutMs",
  DATABASE_STATEMENT_TIMEOUT_MS: "statementTimeoutMs",
  DATABASE_IDLE_TIMEOUT_MS: "idleTimeoutMs",
  DATABASE_NAMED_STATEMENTS: "namedStatements",
};

export class StoreEnvironmentError extends Error {}

/**
 * `DATABASE_URL`, the pool bounds (`DATABASE_POOL_MAX`, `DATABASE_CONNECT_TIMEOUT_MS`,
 * `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_IDLE_TIMEOUT_MS`, `DATABASE_NAMED_STATEMENTS`), PostgreSQL's
 * `DATABASE_FIELD_COUNT_FOLD_MS` (0: never) and SQLite's `SQLITE_MMAP_SIZE` (bytes),
 * `SQLITE_BUSY_TIMEOUT_MS` and `SQLITE_SYNCHRONOUS` (`normal` or `full`) from an environment.
 * Empty means unset.
 */
export function storeOptionsFromEnvironment(environment: Record<string, string | undefined>): StoreOptions & {
  databaseUrl: string;
  pool: PostgresPoolOptions;
  postgres: PostgresTuning;
  sqlite: Required<SqliteTuning>;
} {
  const problems: string[] = [];
  const wholeNumber = (variable: string, minimum: number, fallback: number, maximum?: number) => {
    const raw = environment[variable];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (Number.isSafeInteger(value) && value >= minimum && (maximum === undefined || value <= maximum))
      return value;
    problems.push(
      `${variable}: expected a whole number ≥ ${minimum}${maximum === undefined ? "" : ` and ≤ ${maximum}`}`,
    );
    return fallback;
  };
  const pool = { ...DEFAULT_POOL };
  for (const [variable, bound] of Object.entries(POOL_VARIABLES))
    pool[bound] = wholeNumber(variable, bound === "max" ? 1 : 0, pool[bound]);
  const postgres = {
    fieldCountFoldMs: wholeNumber(
      "DATABASE_FIELD_COUNT_FOLD_MS",
      0,
      DEFAULT_POSTGRES_TUNING.fieldCountFoldMs,
      MAX_FIELD_COUNT_FOLD_INTERVAL_MS,
    ),
  };
  const synchronous = (environment.SQLITE_SYNCHRONOUS || "normal").toLowerCase();
  if (!(SQLITE_SYNCHRONOUS as readonly string[]).includes(synchronous))
    problems.push(`SQLITE_SYNCHRONOUS: expected ${SQLITE_SYNCHRONOUS.join(" or ")}`);
  const sqlite = {
    mmapSizeBytes: wholeNumber("SQLITE_MMAP_SIZE", 0, 0),
    busyTimeoutMs: wholeNumber("SQLITE_BUSY_TIMEOUT_MS", 0, 5000),
    synchronous: synchronous as SqliteSynchronous,
  };
  if (problems.length > 0) throw new StoreEnvironmentError(problems.join("; "));
  return { databaseUrl: environment.DATABASE_URL || DEFAULT_DATABASE_URL, pool, postgres, sqlite };
}
