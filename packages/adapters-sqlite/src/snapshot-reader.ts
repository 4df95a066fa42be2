import type { DatabaseSchema } from "@service-api/adapters-kysely";
import Database from "better-sqlite3";
import { Kysely } from "kysely";
import { PlannedOnceSqliteDialect } from "./planned-once-dialect.js";
import { addSqlFunctions } from "./sqlite-functions.js";
import { withStatementCache } from "./statement-cache.js";

export interface SnapshotReaderOptions {
  busyTimeoutMs: number;
  mmapSizeBytes: number;
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/**
 * A read-only connection of its own to the store's file, for one snapshot, opened as its
 * transaction begins. The store's one connection stays free for every other call while a long
 * snapshot (an export) reads, as WAL mode lets readers run beside a writer; and a write through the
 * snapshot fails (`SQLITE_READONLY`) instead of landing.
 */
export function openSnapshotReader(
  path: string,
  { busyTimeoutMs, mmapSizeBytes, onQuery }: SnapshotReaderOptions,
): Kysely<DatabaseSchema> {
  return new Kysely<DatabaseSchema>({
    dialect: new PlannedOnceSqliteDialect({
      database: async () => {
        const database = new Database(path, { readonly: true, fileMustExist: true });
        database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
        database.pragma(`mmap_size = ${Math.trunc(mmapSizeBytes)}`);
        addSqlFunctions(database);
        // An export runs the same few statements for every document.
        return withStatementCache(database);
      },
    }),
    log: onQuery && ((event) => onQuery(event.query.sql, event.query.parameters)),
  });
}
