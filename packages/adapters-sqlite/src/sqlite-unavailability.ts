/**
 * SQLite result codes that mean the database cannot serve now, not that the statement is wrong:
 * locked by another connection (the store tells it apart first: {@link isSqliteBusy}), an I/O error, a full disk, a file that
 * cannot be opened, or one made read-only while the store was open. Extended codes (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_IOERR_WRITE`…) count with their base.
 */
const UNAVAILABLE_CODES = [
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "SQLITE_IOERR",
  "SQLITE_FULL",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
];

/** Whether a better-sqlite3 error means the database cannot be used now. */
export function isSqliteUnavailable(error: unknown): boolean {
  return UNAVAILABLE_CODES.some((base) => hasCode(error, base));
}

/**
 * Whether a better-sqlite3 error means another connection holds the lock the statement needs (or,
 * `SQLITE_BUSY_SNAPSHOT`, wrote since it began reading): the statement changed nothing, and runs
 * again once the lock is free.
 */
export function isSqliteBusy(error: unknown): boolean {
  return hasCode(error, "SQLITE_BUSY");
}

/** Whether the error's code is `base` or one of its extended codes (`SQLITE_BUSY_SNAPSHOT`…). */
function hasCode(error: unknown, base: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code === base || code.startsWith(`${base}_`));
}
