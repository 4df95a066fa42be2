import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * The database as kysely sees it, keeping prepared statements by their SQL: kysely prepares every
 * statement again on every query, and preparing costs more than running a point lookup. Our
 * queries are few and fixed, so a small bound holds them all; the least recently used goes first.
 * `beforeStatement` runs before kysely prepares a statement, which it then runs, and before closing;
 * `afterStatement` after each statement has run (a commit among them).
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = 256,
  beforeStatement: () => void = () => {},
  afterStatement?: () => void,
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
      return afterStatement ? followedBy(statement, afterStatement) : statement;
    },
  };
}

/** The statement, with `after` run once it has run. */
function followedBy(statement: SqliteStatement, after: () => void): SqliteStatement {
  return {
    reader: statement.reader,
    all(parameters) {
      const rows = statement.all(parameters);
      after();
      return rows;
    },
    run(parameters) {
      const result = statement.run(parameters);
      after();
      return result;
    },
    *iterate(parameters) {
      yield* statement.iterate(parameters);
      after();
    },
  };
}
