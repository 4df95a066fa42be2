import { type Kysely, sql } from "kysely";

/** The statement and lock time-outs a connection runs with, in ms; 0 is no limit. */
export interface TimeOuts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

/**
 * Whether the statement time-out would end every lock wait before the lock time-out does (both
 * above 0), so that a lock held elsewhere shows as an outage rather than a busy store.
 */
export const cutsLockWaits = ({ statementTimeoutMs, lockTimeoutMs }: TimeOuts): boolean =>
  lockTimeoutMs > 0 && statementTimeoutMs > 0 && lockTimeoutMs >= statementTimeoutMs;

/**
 * The time-outs the store's connections run with, as the server reports them: the database URL may
 * set either (`?statement_timeout=…`, `options=-c lock_timeout=…`) over the pool's bounds.
 */
export async function effectiveTimeOuts<Schema>(db: Kysely<Schema>): Promise<TimeOuts> {
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings where name in ('statement_timeout', 'lock_timeout')`.execute(db);
  const ms = (name: string) => Number(rows.find((row) => row.name === name)?.setting ?? 0);
  return { statementTimeoutMs: ms("statement_timeout"), lockTimeoutMs: ms("lock_timeout") };
}

/**
 * Why the time-outs in effect would turn every lock wait into an outage (the statement time-out
 * ends it first), naming what was asked when the database URL changed it; undefined when they are
 * fine. The pool's bounds are checked before connecting: only the URL can bring this about.
 */
export function effectiveTimeOutsProblem(effective: TimeOuts, asked: TimeOuts): string | undefined {
  if (!cutsLockWaits(effective)) return undefined;
  const { statementTimeoutMs: statement, lockTimeoutMs: lock } = effective;
  const changed = [
    statement !== asked.statementTimeoutMs &&
      `statement_timeout ${statement} ms, not ${asked.statementTimeoutMs}`,
    lock !== asked.lockTimeoutMs && `lock_timeout ${lock} ms, not ${asked.lockTimeoutMs}`,
  ].filter(Boolean);
  // As asked: the bounds were checked, or derived (a 1 ms statement time-out leaves no shorter lock one).
  if (changed.length === 0) return undefined;
  return (
    `the store's connections run with lock_timeout ${lock} ms, not below statement_timeout ${statement} ms ` +
    `(the database URL sets ${changed.join(" and ")}): the statement time-out would end every lock wait first, ` +
    "as an outage. Set them with DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_LOCK_TIMEOUT_MS (embedded: pool.statementTimeoutMs, pool.lockTimeoutMs) rather than in the URL"
  );
}
