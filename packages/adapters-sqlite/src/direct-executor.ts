import type { DirectExecutor } from "@service-api/adapters-kysely";
import type { Database } from "better-sqlite3";
import type { SharedReadTransaction } from "./shared-read-transaction.js";

/**
 * better-sqlite3 runs a statement synchronously, so a compiled statement can run on it at once,
 * prepared once, instead of through kysely's asynchronous driver. Reads share the open read
 * transaction; a write ends it first and runs on its own. While kysely holds the connection for a
 * transaction, statements go through kysely and wait for it, so none lands inside another's.
 */
export function sqliteDirectExecutor(
  database: Database,
  reads: SharedReadTransaction,
  onQuery?: (sql: string, parameters: readonly unknown[]) => void,
): DirectExecutor {
  return {
    isFree: () => reads.free,
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
