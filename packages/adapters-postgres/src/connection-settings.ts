import type pg from "pg";
import { parse } from "pg-connection-string";

/**
 * What every connection of the store starts with, whatever the database's or the role's defaults:
 * READ COMMITTED, where each statement sees what committed before it. The single-statement writes
 * and `write_document_values` rely on it; under REPEATABLE READ, concurrent writes to one row fail
 * as serialization conflicts.
 */
const SESSION_OPTIONS = "-c default_transaction_isolation=read\\ committed";

/**
 * The connection settings `databaseUrl` gives, read as pg reads them (they win over the pool's
 * own, as pg's `connectionString` does), with {@link SESSION_OPTIONS} after the URL's own
 * `options` (`-c search_path=…`, `-c synchronous_commit=off`): a later `-c` wins.
 */
export function connectionSettings(databaseUrl: string): pg.PoolConfig {
  const settings = parse(databaseUrl);
  const options = [settings.options, SESSION_OPTIONS].filter(Boolean).join(" ");
  return { ...(settings as pg.PoolConfig), options };
}
