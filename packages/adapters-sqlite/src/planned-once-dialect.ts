import { type QueryCompiler, SqliteDialect, SqliteQueryCompiler } from "kysely";

/**
 * Writes each parameter as `+?` instead of `?`. SQLite marks a statement to be prepared again when
 * a new value is bound to a parameter its query planner looked at (the right side of an `=`, a
 * `LIMIT`, a `LIKE` pattern); with an `ORDER BY`, that is every run of the statement, and each run
 * then parses and plans it anew: 15–40 µs, more than the read itself (Get Document's values: 23 µs
 * a run, 7.5 once planned once). The unary plus changes neither the value nor its affinity (none, as
 * a bare parameter's) nor the plan, and keeps the value from the planner, as SQLite's query-planner
 * stability guarantee would.
 */
class PlannedOnceQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return "+?";
  }
}

/** kysely's SQLite dialect, with parameters that do not make SQLite prepare a statement again. */
export class PlannedOnceSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PlannedOnceQueryCompiler();
  }
}
