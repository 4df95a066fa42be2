import type { DirectExecutor } from "@service-api/adapters-kysely";
import type { Database } from "better-sqlite3";

/**
 * better-sqlite3 runs a statement synchronously, so a compiled statement can run on it at once,
 * prepared once, instead of through kysely's asynchronous driver. While kysely holds the connection
 * for a transaction, statements go through kysely and wait for it, so none lands inside another's
 * transaction.
 */
export function sqliteDirectExecutor(
  database: Database,
  onQuery?: (sql: string, parameters: readonly unknown[]) => void,
): DirectExecutor {
  return {
    isFree: () => !database.inTransaction,
    prepare(sql) {
      const statement = database.prepare(sql);
      const run = statement.reader
        ? (parameters: readonly unknown[]) => statement.all(parameters) as unknown[]
        : (parameters: readonly unknown[]) => {
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
