import { DEFAULT_POOL, isPostgresUrl, lockTimeoutProblem } from "@service-api/adapters-postgres";
import type { StoreOptions } from "./open-store.js";
import {
  databaseUrlProblem,
  EXPECTED_DATABASE_URL,
  EXPECTED_FILES_DIR,
  EXPECTED_SYNCHRONOUS,
  expectedWholeNumber,
  filesDirProblem,
  isSqliteSynchronous,
  isWholeNumberWithin,
  POOL_RULES,
  POSTGRES_RULES,
  SQLITE_RULES,
  sqliteRuntimeProblem,
  type WholeNumberRule,
} from "./store-option-rules.js";

/** Store options given in code that no store can take; `problems` names each option and what it expects. */
export class StoreOptionsError extends Error {
  override readonly name = "StoreOptionsError";

  constructor(readonly problems: readonly string[]) {
    super(`Invalid store options: ${problems.join("; ")}`);
  }
}

/**
 * Throws a `StoreOptionsError` naming every bad option: a database URL that names no store (see
 * `databaseUrl`), a bound or tuning that is not a whole number within its range (pool `max` ≥ 1,
 * time-outs from 0 to 2147483647 ms, `fieldCountFoldMs` from 0 to a day, `mmapSizeBytes` ≥ 0), a
 * lock time-out at or above the statement time-out (both above 0),
 * a `synchronous` other than `"normal"` or `"full"`, or a `filesDir` that is empty or has spaces
 * around it; and SQLite on a Node.js its driver cannot run on. An option left undefined takes its default.
 * `openStore` calls it before it connects or touches the disk.
 */
export function checkStoreOptions(options: StoreOptions): void {
  const { databaseUrl, pool, postgres, sqlite, filesDir } = options;
  const problems: string[] = [];
  if (databaseUrl !== undefined) {
    const problem =
      typeof databaseUrl === "string"
        ? databaseUrlProblem(databaseUrl)
        : `${EXPECTED_DATABASE_URL}, as a string`;
    if (problem) problems.push(`databaseUrl: ${problem}`);
  }
  const sqliteNamed =
    databaseUrl === undefined || (typeof databaseUrl === "string" && !isPostgresUrl(databaseUrl));
  const runtimeProblem = sqliteNamed ? sqliteRuntimeProblem(process.versions.node) : undefined;
  if (runtimeProblem) problems.push(`databaseUrl: ${runtimeProblem}`);
  const poolProblems = wholeNumberProblems("pool", pool, POOL_RULES);
  problems.push(...poolProblems);
  const unread = (name: string) => poolProblems.some((problem) => problem.startsWith(`pool.${name}:`));
  if (
    isObject(pool) &&
    pool.lockTimeoutMs !== undefined &&
    !unread("lockTimeoutMs") &&
    !unread("statementTimeoutMs")
  ) {
    const given = pool.statementTimeoutMs as number | undefined;
    const problem = lockTimeoutProblem(
      pool.lockTimeoutMs as number,
      given ?? DEFAULT_POOL.statementTimeoutMs,
      given === undefined ? "pool.statementTimeoutMs, unset, whose default is" : "pool.statementTimeoutMs",
    );
    if (problem) problems.push(`pool.lockTimeoutMs: ${problem}`);
  }
  problems.push(...wholeNumberProblems("postgres", postgres, POSTGRES_RULES));
  problems.push(...wholeNumberProblems("sqlite", sqlite, SQLITE_RULES));
  const synchronous = isObject(sqlite) ? sqlite.synchronous : undefined;
  if (synchronous !== undefined && !isSqliteSynchronous(synchronous))
    problems.push(`sqlite.synchronous: ${EXPECTED_SYNCHRONOUS}, in lower case`);
  if (filesDir !== undefined) {
    const problem =
      typeof filesDir === "string" ? filesDirProblem(filesDir) : `${EXPECTED_FILES_DIR}, as a string`;
    if (problem) problems.push(`filesDir: ${problem}`);
  }
  if (problems.length > 0) throw new StoreOptionsError(problems);
}

function wholeNumberProblems(
  group: string,
  values: unknown,
  rules: Record<string, WholeNumberRule>,
): string[] {
  if (values === undefined) return [];
  if (!isObject(values)) return [`${group}: expected an object`];
  return Object.entries(rules)
    .filter(([name, rule]) => values[name] !== undefined && !isWholeNumberWithin(values[name], rule))
    .map(([name, rule]) => `${group}.${name}: ${expectedWholeNumber(rule)}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
