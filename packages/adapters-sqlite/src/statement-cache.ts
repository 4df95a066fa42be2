import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * The database as kysely sees it, keeping prepared statements by their SQL: kysely prepares every
 * statement again on every query, and preparing costs more than running a point lookup. Our
 * queries are few and fixed, so a small bound holds them all; the least recently used goes first.
 * `beforeStatement` runs before kysely prepares a statement, which it then runs, and before closing.
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = 256,
  beforeStatement: () => void = () => {},
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      beforeStatement();
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      beforeStatement();
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
