import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  SqliteQueryCompiler,
} from "kysely";

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

/**
 * Transactions that take the write lock as they begin (`BEGIN IMMEDIATE`); while another process
 * writes, the `BEGIN` fails at once and the store's guard begins again after a pause, within the
 * busy time-out (`lockRetryMs`). A transaction begun deferred reads first and
 * then cannot write at all when another process committed in between (`SQLITE_BUSY_SNAPSHOT`, at
 * once, whatever the time-out): a 503 under `WORKERS` or beside the CLI. Every transaction of the
 * store writes; snapshots read on a read-only connection of their own, where SQLite begins a read
 * transaction instead, taking no lock.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/**
 * SQLite's schema changes are transactional, which kysely's adapter does not claim: its migrator
 * then runs them statement by statement, so a process killed halfway through a migration left it
 * applied in part and unrecorded, and every later start failed on it (a column already there). Said
 * so, the migrator runs the pending migrations and their records in one transaction. (Inside one,
 * `PRAGMA foreign_keys` changes nothing: a migration that rebuilds a table cannot turn them off.)
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * kysely's SQLite dialect, with parameters that do not make SQLite prepare a statement again,
 * transactions that begin with the write lock, and migrations in one transaction.
 */
export class PlannedOnceSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createQueryCompiler(): QueryCompiler {
    return new PlannedOnceQueryCompiler();
  }
}
