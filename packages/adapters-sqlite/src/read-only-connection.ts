import Database from "better-sqlite3";
import { addSqlFunctions } from "./sqlite-functions.js";

export interface ReadOnlyConnectionOptions {
  busyTimeoutMs: number;
  mmapSizeBytes: number;
}

/**
 * A read-only connection to the store's file, set as the store's own (its busy wait, its memory
 * map, the SQL functions the shared statements call): a write through it fails (`SQLITE_READONLY`).
 */
export function openReadOnlyConnection(
  path: string,
  { busyTimeoutMs, mmapSizeBytes }: ReadOnlyConnectionOptions,
): Database.Database {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  database.pragma(`mmap_size = ${Math.trunc(mmapSizeBytes)}`);
  addSqlFunctions(database);
  return database;
}
