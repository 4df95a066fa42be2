import type { DirectExecutor } from "@service-api/adapters-kysely";
import type { Database } from "better-sqlite3";
import type { BesideReader } from "./beside-reader.js";
import type { SharedReadTransaction } from "./shared-read-transaction.js";

/**
 * better-sqlite3 runs a statement synchronously, so a compiled statement can run on it at once,
 * prepared once, instead of through kysely's asynchronous driver. Reads share the open read
 * transaction; a write ends it first and runs on its own. While kysely holds the connection for a
 * transaction, writes go through kysely and wait for it, so none lands inside another's; reads run
 * `beside` it, on a connection of their own that reads the last commit (none in memory: they wait).
 */
export function sqliteDirectExecutor(
  database: Database,
  reads: SharedReadTransaction,
  onQuery?: (sql: string, parameters: readonly unknown[]) => void,
  beside?: BesideReader,
): DirectExecutor {
  return {
    isFree: () => reads.free,
    prepareBeside(sql) {
      const run = beside?.prepare(sql);
      return run && onQuery ? logged(sql, onQuery, run) : run;
    },
    prepare(sql) {
      const statement = database.prepare(sql);
      // A write (RETURNING ones read rows too) ends the shared read transaction first, and once it
      // has run, the other stores' on the same file.
      const before = statement.readonly ? () => reads.beforeRead() : reads.end;
      const after = statement.readonly ? () => {} : reads.wrote;
      const run: Run = statement.reader
        ? (parameters) => {
            before();
            const rows = statement.all(parameters) as unknown[];
            after();
            return rows;
          }
        : (parameters) => {
            before();
            statement.run(parameters);
            after();
            return [];
          };
      return onQuery ? logged(sql, onQuery, run) : run;
    },
  };
}

type Run = (parameters: readonly unknown[]) => unknown[];

function logged(sql: string, onQuery: (sql: string, parameters: readonly unknown[]) => void, run: Run): Run {
  return (parameters) => {
    onQuery(sql, parameters);
    return run(parameters);
  };
}
