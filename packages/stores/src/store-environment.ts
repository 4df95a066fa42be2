import {
  DEFAULT_POOL,
  lockTimeoutFor,
  lockTimeoutProblem,
  type PostgresPoolOptions,
} from "@service-api/adapters-postgres";
import { DEFAULT_DATABASE_URL, type SqliteSynchronous } from "@service-api/adapters-sqlite";
import {
  DEFAULT_POSTGRES_TUNING,
  type PostgresTuning,
  type SqliteTuning,
  type StoreOptions,
} from "./open-store.js";
import {
  databaseUrlProblem,
  EXPECTED_SYNCHRONOUS,
  expectedWholeNumber,
  filesDirProblem,
  isSqliteSynchronous,
  POOL_RULES,
  POSTGRES_RULES,
  SQLITE_RULES,
  type WholeNumberRule,
  wholeNumberIn,
} from "./store-option-rules.js";

/** The environment variables of the store, with the pool bound each one sets. */
const POOL_VARIABLES: Record<string, keyof PostgresPoolOptions> = {
  DATABASE_POOL_MAX: "max",
  DATABASE_CONNECT_TIMEOUT_MS: "connectionTimeoutMs",
  DATABASE_STATEMENT_TIMEOUT_MS: "statementTimeoutMs",
  DATABASE_LOCK_TIMEOUT_MS: "lockTimeoutMs",
  DATABASE_IDLE_TIMEOUT_MS: "idleTimeoutMs",
  DATABASE_NAMED_STATEMENTS: "namedStatements",
  DATABASE_OPEN_TIMEOUT_MS: "openTimeoutMs",
};

export class StoreEnvironmentError extends Error {}

/**
 * `DATABASE_URL`, the pool bounds (`DATABASE_POOL_MAX`, `DATABASE_CONNECT_TIMEOUT_MS`,
 * `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_LOCK_TIMEOUT_MS`, `DATABASE_IDLE_TIMEOUT_MS`, `DATABASE_NAMED_STATEMENTS`,
 * `DATABASE_OPEN_TIMEOUT_MS`), PostgreSQL's
 * `DATABASE_FIELD_COUNT_FOLD_MS` (0: never) and SQLite's `SQLITE_MMAP_SIZE` (bytes),
 * `SQLITE_BUSY_TIMEOUT_MS`, `SQLITE_SYNCHRONOUS` (`normal` or `full`, in any case) and `FILES_DIR`
 * (the directory for uploaded files' bytes; unset, they stay in the database) from an
 * environment, by the rules `checkStoreOptions` applies to options given in code. Empty means unset.
 * A pool bound unset takes `poolDefaults`' value, else `DEFAULT_POOL`'s; the lock time-out,
 * `lockTimeoutFor` a statement time-out above 0, else `poolDefaults`' value.
 */
export function storeOptionsFromEnvironment(
  environment: Record<string, string | undefined>,
  poolDefaults: Partial<PostgresPoolOptions> = {},
): StoreOptions & {
  databaseUrl: string;
  pool: PostgresPoolOptions;
  postgres: PostgresTuning;
  sqlite: Required<SqliteTuning>;
} {
  const problems: string[] = [];
  const databaseUrl = environment.DATABASE_URL || DEFAULT_DATABASE_URL;
  const urlProblem = databaseUrlProblem(databaseUrl);
  if (urlProblem) problems.push(`DATABASE_URL: ${urlProblem}`);
  const wholeNumber = (variable: string, rule: WholeNumberRule, fallback: number) => {
    const raw = environment[variable];
    if (raw === undefined || raw === "") return fallback;
    const value = wholeNumberIn(raw, rule);
    if (value !== undefined) return value;
    problems.push(`${variable}: ${expectedWholeNumber(rule)}`);
    return fallback;
  };
  const pool = { ...DEFAULT_POOL, ...poolDefaults };
  for (const [variable, bound] of Object.entries(POOL_VARIABLES))
    pool[bound] = wholeNumber(variable, POOL_RULES[bound], pool[bound]);
  const unread = (variable: string) => problems.some((problem) => problem.startsWith(`${variable}:`));
  if (!environment.DATABASE_LOCK_TIMEOUT_MS) {
    // Below a statement time-out; the caller's own default (the CLI's 0) where there is none.
    pool.lockTimeoutMs =
      pool.statementTimeoutMs > 0
        ? lockTimeoutFor(pool.statementTimeoutMs)
        : (poolDefaults.lockTimeoutMs ?? lockTimeoutFor(0));
  } else if (!unread("DATABASE_LOCK_TIMEOUT_MS") && !unread("DATABASE_STATEMENT_TIMEOUT_MS")) {
    const name = environment.DATABASE_STATEMENT_TIMEOUT_MS
      ? "DATABASE_STATEMENT_TIMEOUT_MS"
      : "DATABASE_STATEMENT_TIMEOUT_MS, unset, whose default is";
    const problem = lockTimeoutProblem(pool.lockTimeoutMs, pool.statementTimeoutMs, name);
    if (problem) problems.push(`DATABASE_LOCK_TIMEOUT_MS: ${problem}`);
  }
  const postgres = {
    fieldCountFoldMs: wholeNumber(
      "DATABASE_FIELD_COUNT_FOLD_MS",
      POSTGRES_RULES.fieldCountFoldMs,
      DEFAULT_POSTGRES_TUNING.fieldCountFoldMs,
    ),
  };
  const synchronous = (environment.SQLITE_SYNCHRONOUS || "normal").toLowerCase();
  if (!isSqliteSynchronous(synchronous)) problems.push(`SQLITE_SYNCHRONOUS: ${EXPECTED_SYNCHRONOUS}`);
  const sqlite = {
    mmapSizeBytes: wholeNumber("SQLITE_MMAP_SIZE", SQLITE_RULES.mmapSizeBytes, 0),
    busyTimeoutMs: wholeNumber("SQLITE_BUSY_TIMEOUT_MS", SQLITE_RULES.busyTimeoutMs, 5000),
    synchronous: synchronous as SqliteSynchronous,
  };
  const filesDir = environment.FILES_DIR || undefined;
  const filesDirRefusal = filesDir === undefined ? undefined : filesDirProblem(filesDir);
  if (filesDirRefusal) problems.push(`FILES_DIR: ${filesDirRefusal}`);
  if (problems.length > 0) throw new StoreEnvironmentError(problems.join("; "));
  return { databaseUrl, pool, postgres, sqlite, ...(filesDir !== undefined && { filesDir }) };
}
