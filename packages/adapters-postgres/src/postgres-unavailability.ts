import { UnansweredStatementError } from "./unanswered-statements.js";

/**
 * SQLSTATE classes and codes that mean the server cannot serve now, not that the statement is
 * wrong: connection exceptions (08), a login refused (28: a rotated password, a role that may no
 * longer log in), insufficient resources (53: too many connections, disk full, out of memory), a
 * shutdown or restart (57P01–57P03), the database dropped (57P04), a statement cancelled by its
 * time-out (57014), a lock not had in time (55P03), a database that only reads (25006: a standby
 * after a failover, `default_transaction_read_only`), system I/O (58), and a database that takes no
 * connections (`ALLOW_CONNECTIONS false`: 55000, which otherwise means a statement out of place).
 */
const UNAVAILABLE_CLASSES = ["08", "28", "53", "58"];
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "57P04", "57014", "55P03", "25006"]);
/**
 * What running the work again resolves: a serialization failure or a deadlock (PostgreSQL rolled
 * the transaction back), and a connection the server ended for being idle (`idle_session_timeout`,
 * 57P05: it ends only connections outside a transaction, so the statement that met it never ran).
 */
const CONFLICT_CODES = new Set(["40001", "40P01", "57P05"]);

/** Socket errors of a connection that could not be made or was dropped. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** 55000 when logging in: `database "…" is not currently accepting connections`. */
const REFUSING_CONNECTIONS = "not currently accepting connections";
/** The server function that says so, whatever the language of its messages (`lc_messages`). */
const refusesConnections = (error: Error) => (error as { routine?: unknown }).routine === "CheckMyDatabase";

/** What pg and its pool say, without a code, when a connection is gone or cannot be had in time. */
const CONNECTION_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "is not queryable",
  "driver has already been destroyed",
  "Cannot use a pool after calling end on the pool",
];

/** Whether a pg error means PostgreSQL cannot be reached now (rather than that the statement failed). */
export function isPostgresUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A statement given up on a connection that went silent (the network stalled).
  if (error instanceof UnansweredStatementError) return true;
  if (error instanceof AggregateError && error.errors.some(isPostgresUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || UNAVAILABLE_CODES.has(code)) return true;
    if (code === "55000" && (refusesConnections(error) || error.message.includes(REFUSING_CONNECTIONS)))
      return true;
    if (code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  return CONNECTION_MESSAGES.some((message) => error.message.includes(message));
}

/**
 * Whether a named statement's plan no longer fits its tables (a column added or dropped since the
 * connection prepared it, by a migration of a newer instance): prepared again, it runs.
 */
export function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === "0A000" &&
    error.message.includes("cached plan must not change result type")
  );
}

/**
 * Whether a pg error is a lock another transaction holds, not had in time: past `lock_timeout`,
 * or at once for a lock taken `NOWAIT` (55P03, `lock_not_available`).
 */
export function isLockNotAvailable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "55P03";
}

/**
 * Whether running the work again resolves a pg error: a conflict with a concurrent transaction,
 * or a stale plan (`NamedStatements` names its statements afresh when it sees one).
 */
export function isPostgresConflict(error: unknown): boolean {
  return (
    (error instanceof Error && CONFLICT_CODES.has((error as { code?: unknown }).code as string)) ||
    isStalePlan(error)
  );
}
