import type pg from "pg";
import { parse } from "pg-connection-string";

/**
 * What every connection of the store starts with, whatever the database's or the role's defaults:
 * READ COMMITTED, where each statement sees what committed before it. The single-statement writes
 * and `write_document_values` rely on it; under REPEATABLE READ, concurrent writes to one row fail
 * as serialization conflicts. (A pooler that refuses startup parameters it does not know, as
 * PgBouncer does, must ignore `options` as it ignores `statement_timeout`: the README says how.)
 */
const SESSION_OPTIONS = "-c default_transaction_isolation=read\\ committed";

/**
 * What pg-connection-string hands on from a URL's query that is the pool's, not a connection's:
 * the store's own checked bounds and wiring stand, whatever the URL says (`?max=1`).
 */
const POOL_SETTINGS = [
  "max",
  "min",
  "idleTimeoutMillis",
  "connectionTimeoutMillis",
  "maxUses",
  "maxLifetimeSeconds",
  "allowExitOnIdle",
  "Client",
  "stream",
  "types",
];

/**
 * The connection parameters `databaseUrl` gives, read as pg reads them (they win over the pool's
 * defaults, as pg's `connectionString` does), with {@link SESSION_OPTIONS} after the URL's own
 * `options` (`-c search_path=…`, `-c synchronous_commit=off`): a later `-c` wins. The lock time-out
 * goes in `options` too, before the URL's (which may set its own), not as a startup parameter of
 * its own: a pooler told to ignore `options` (PgBouncer) then ignores it too, rather than refusing
 * every connection.
 */
export function connectionSettings(
  databaseUrl: string,
  { lockTimeoutMs }: { lockTimeoutMs: number },
): pg.PoolConfig {
  const settings: Record<string, unknown> = { ...parse(databaseUrl) };
  for (const name of POOL_SETTINGS) delete settings[name];
  const lockTimeout = `-c lock_timeout=${Math.trunc(lockTimeoutMs)}`;
  const options = [lockTimeout, settings.options, SESSION_OPTIONS].filter(Boolean).join(" ");
  return { ...(settings as pg.PoolConfig), options };
}
