/**
 * SQLite result codes that mean the database cannot serve now, not that the statement is wrong:
 * locked by another connection past the busy time-out, an I/O error, a full disk, a file that
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
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" && UNAVAILABLE_CODES.some((base) => code === base || code.startsWith(`${base}_`))
  );
}
