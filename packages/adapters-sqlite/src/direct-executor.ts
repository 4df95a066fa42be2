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
      // A write (RETURNING ones read rows too) ends the shared read transaction first.
      const before = statement.readonly ? () => reads.beforeRead() : reads.end;
      const run = statement.reader
        ? (parameters: readonly unknown[]) => {
            before();
            return statement.all(parameters) as unknown[];
          }
        : (parameters: readonly unknown[]) => {
            before();
            statement.run(parameters);
            return [];
          };
      if (!onQuery) return run;
      return (parameters) => {
        onQuery(sql, parameters);
        return run(parameters);
      };
    },
  };
}
