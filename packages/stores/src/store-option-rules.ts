import {
  isPostgresUrl,
  MAX_FIELD_COUNT_FOLD_INTERVAL_MS,
  type PostgresPoolOptions,
} from "@service-api/adapters-postgres";
import { SQLITE_SYNCHRONOUS, sqlitePathOf } from "@service-api/adapters-sqlite";
import type { PostgresTuning, SqliteTuning } from "./open-store.js";

// The rules the options given in code (checkStoreOptions) and the environment
// (storeOptionsFromEnvironment) share; each names its options its own way around "expected …".

/** Node's timers hold at most 2^31 − 1 ms (past it they fire after 1 ms); so do PostgreSQL's. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A whole number from `minimum` to `maximum` (without one, to the largest safe integer). */
export interface WholeNumberRule {
  minimum: number;
  maximum?: number;
}

const MILLISECONDS: WholeNumberRule = { minimum: 0, maximum: MAX_TIMER_MS };

export const POOL_RULES: Record<keyof PostgresPoolOptions, WholeNumberRule> = {
  max: { minimum: 1 },
  connectionTimeoutMs: MILLISECONDS,
  statementTimeoutMs: MILLISECONDS,
  lockTimeoutMs: MILLISECONDS,
  idleTimeoutMs: MILLISECONDS,
  namedStatements: { minimum: 0 },
  openTimeoutMs: MILLISECONDS,
};

/** 0 never folds. */
export const POSTGRES_RULES: Record<keyof PostgresTuning, WholeNumberRule> = {
  fieldCountFoldMs: { minimum: 0, maximum: MAX_FIELD_COUNT_FOLD_INTERVAL_MS },
};

export const SQLITE_RULES: Record<Exclude<keyof SqliteTuning, "synchronous">, WholeNumberRule> = {
  mmapSizeBytes: { minimum: 0 },
  busyTimeoutMs: MILLISECONDS,
};

export function isWholeNumberWithin(value: unknown, { minimum, maximum }: WholeNumberRule): value is number {
  return (
    Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= (maximum ?? Infinity)
  );
}

/** Plain decimal digits: no sign, point, exponent, `0x` or spaces (`Number` would read `" "` as 0). */
const DIGITS = /^\d+$/;

/** The whole number `raw` writes, within `rule`, or undefined: plain decimal digits only. */
export function wholeNumberIn(raw: string, rule: WholeNumberRule): number | undefined {
  const value = Number(raw);
  return DIGITS.test(raw) && isWholeNumberWithin(value, rule) ? value : undefined;
}

export function expectedWholeNumber({ minimum, maximum }: WholeNumberRule): string {
  return `expected a whole number ≥ ${minimum}${maximum === undefined ? "" : ` and ≤ ${maximum}`}`;
}

export function isSqliteSynchronous(value: unknown): boolean {
  return (SQLITE_SYNCHRONOUS as readonly unknown[]).includes(value);
}

export const EXPECTED_SYNCHRONOUS = `expected ${SQLITE_SYNCHRONOUS.join(" or ")}`;

export const EXPECTED_DATABASE_URL =
  "expected a postgres:// or postgresql:// URL (PostgreSQL), or a path or file: URL (SQLite)";

export const EXPECTED_FILES_DIR = "expected the path of a directory";

/** What is wrong with a files directory's path ("expected …"), or undefined when it is one. */
export function filesDirProblem(filesDir: string): string | undefined {
  if (filesDir === "") return `${EXPECTED_FILES_DIR}, not an empty string`;
  if (filesDir.trim() !== filesDir) return `${EXPECTED_FILES_DIR}, without spaces around it`;
  if (filesDir.includes("\0")) return `${EXPECTED_FILES_DIR}, without a NUL character`;
  return undefined;
}

/** Two characters at least, so that a Windows drive (`C:\…`) stays a path. */
const SCHEME = /^([a-z][a-z\d+.-]+):/i;

/**
 * What is wrong with a database URL ("expected …"), or undefined when it names a store. A URL of
 * another scheme (`mysql://`, `postgresql+psycopg2://`, `jdbc:postgresql://`, a typo) is refused:
 * read as a path, it would open an empty SQLite file in folders named after it, password included.
 * Only the scheme is echoed.
 */
export function databaseUrlProblem(databaseUrl: string): string | undefined {
  if (databaseUrl === "") return `${EXPECTED_DATABASE_URL}, not an empty string`;
  if (databaseUrl.trim() !== databaseUrl) return `${EXPECTED_DATABASE_URL}, without spaces around it`;
  if (isPostgresUrl(databaseUrl)) return undefined;
  if (databaseUrl.startsWith("file:") && /[?#]/.test(databaseUrl))
    return `${EXPECTED_DATABASE_URL}; a file: URL's query or fragment (${databaseUrl.slice(databaseUrl.search(/[?#]/))}) is not read: the store's settings are its own options (write a ? in a file name as %3F)`;
  if (databaseUrl.startsWith("file:"))
    return namesLocalFile(databaseUrl)
      ? undefined
      : `${EXPECTED_DATABASE_URL}; this file: URL names no local file`;
  const scheme = SCHEME.exec(databaseUrl)?.[1];
  if (scheme === undefined) return undefined;
  return `${EXPECTED_DATABASE_URL}, not a ${scheme}: URL (for a file of that name, write ./${scheme}:…)`;
}

function namesLocalFile(fileUrl: string): boolean {
  try {
    sqlitePathOf(fileUrl);
    return true;
  } catch {
    return false;
  }
}

/** The first Node.js major better-sqlite3 runs on: on older ones it ends the process (a segfault). */
export const SQLITE_NODE_MAJOR = 22;

/** Why SQLite cannot be opened on this Node.js (`version` as `process.versions.node`), if it cannot. */
export function sqliteRuntimeProblem(version: string): string | undefined {
  if (Number(version.split(".")[0]) >= SQLITE_NODE_MAJOR) return undefined;
  return `SQLite needs Node.js ${SQLITE_NODE_MAJOR} or later (its driver, better-sqlite3, ends the process on older ones); this is Node.js ${version}`;
}
