import { NUMERIC_TEXT } from "@service-api/domain";
import type Database from "better-sqlite3";

/**
 * The functions the shared statements call that SQLite lacks: `numeric_value(text)`, the number a
 * metadata value holds (`NUMERIC_TEXT`) or null, as PostgreSQL's `SqlFeatures.numericValue` reads it.
 */
export function addSqlFunctions(database: Database.Database): void {
  database.function("numeric_value", { deterministic: true }, (value: unknown) => {
    if (typeof value === "number") return value;
    return typeof value === "string" && NUMERIC_TEXT.test(value) ? Number(value) : null;
  });
}
