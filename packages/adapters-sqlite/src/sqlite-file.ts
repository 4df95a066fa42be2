import type { Database } from "better-sqlite3";

/** The SQLite file of a store cannot be used: the message names it and says why. */
export class SqliteFileError extends Error {}

/**
 * Throws a `SqliteFileError` unless this connection may write the database; run it before anything
 * else writes (WAL mode does). SQLite opens a file it
 * may not write read-only without a word, and reads then work while every write fails: a server
 * would start, say it was ready, and answer 500. The check writes the header's user version back as
 * it was, in a transaction it rolls back, and does not wait for another process's lock (one that
 * holds it is writing, so the file is writable).
 */
export function ensureWritable(database: Database, path: string, busyTimeoutMs: number): void {
  database.pragma("busy_timeout = 0");
  try {
    database.prepare("begin immediate").run();
    try {
      const version = database.pragma("user_version", { simple: true }) as number;
      database.pragma(`user_version = ${Math.trunc(version)}`);
    } finally {
      database.prepare("rollback").run();
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return;
    throw namingTheFile(path, error);
  } finally {
    database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  }
}

/**
 * `error`, as a `SqliteFileError` naming the file, unless it is one already; a refusal to write
 * (`SQLITE_READONLY`, from whichever statement met it first) says the file is read-only.
 */
export function namingTheFile(path: string, error: unknown): SqliteFileError {
  if (error instanceof SqliteFileError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_READONLY"))
    return new SqliteFileError(
      `The SQLite database ${path} is read-only to this process: it needs to write the file and, for its journal (-wal and -shm files), its folder.`,
      { cause: error },
    );
  const reason = error instanceof Error ? error.message : String(error);
  return new SqliteFileError(`The SQLite database ${path} cannot be opened: ${reason}`, { cause: error });
}
