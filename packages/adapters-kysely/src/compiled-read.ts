import { type Compilable, CompiledQuery, type Expression, type Kysely, type SqlBool, sql } from "kysely";
import type { DatabaseSchema } from "./schema.js";
import type { SqlFeatures } from "./sql-features.js";

const SENTINEL = "\u0000service-api-argument-";

type Plan = {
  sql: string;
  slots: (number | { constant: unknown })[];
  direct?: ReturnType<DirectExecutor["prepare"]>;
  /** The statement as run beside a transaction: null where it cannot be. */
  beside?: ReturnType<DirectExecutor["prepare"]> | null;
};

/**
 * Runs compiled statements without kysely's per-query promise chain (its connection lock, executor
 * and plugins), which costs more than a point lookup: SQLite runs them synchronously, PostgreSQL as
 * named statements on its pool. Drivers without one run every statement through kysely.
 */
export interface DirectExecutor {
  /** False while kysely holds the connection for a transaction: statements then queue behind it. */
  isFree(): boolean;
  /** A function running `sql` with the given parameters, giving its rows (none for a write). */
  prepare(sql: string): (parameters: readonly unknown[]) => unknown[] | Promise<unknown[]>;
  /**
   * While not free: `sql` run beside kysely's transaction, on a connection reading the last commit,
   * so that a long write does not hold up reads; undefined where `sql` writes, or where there is none.
   */
  prepareBeside?(sql: string): ((parameters: readonly unknown[]) => unknown[]) | undefined;
}

const directExecutors = new WeakMap<Kysely<DatabaseSchema>, DirectExecutor>();

/** Lets compiled statements on `db` (not on its transactions) run through `executor`. */
export function runCompiledDirectly(db: Kysely<DatabaseSchema>, executor: DirectExecutor): void {
  directExecutors.set(db, executor);
}

/**
 * A read compiled once per database and then run again with new arguments. Kysely builds and
 * compiles a query on every call, which costs more than the point lookup it runs; this builds it
 * once with a marker for each argument and remembers where each argument goes. Each argument must
 * reach the parameters unchanged (compared, set or inserted as is), so a marker can stand in for it;
 * writes qualify too. Where the database has a {@link DirectExecutor}, the statement runs through it.
 */
export function compiledRead<Args extends unknown[], Row>(
  build: (db: Kysely<DatabaseSchema>, ...args: Args) => Compilable<Row>,
) {
  const plans = new WeakMap<Kysely<DatabaseSchema>, Plan>();
  const planOf = (db: Kysely<DatabaseSchema>, args: Args): Plan => {
    let plan = plans.get(db);
    if (!plan) {
      const markers = args.map((_, index) => `${SENTINEL}${index}`) as unknown as Args;
      const { sql, parameters } = build(db, ...markers).compile();
      const slots = parameters.map((parameter) =>
        typeof parameter === "string" && parameter.startsWith(SENTINEL)
          ? Number(parameter.slice(SENTINEL.length))
          : { constant: parameter },
      );
      plan = { sql, slots };
      plans.set(db, plan);
    }
    return plan;
  };
  // Not an async function: rows a driver gives at once (SQLite) come in an already resolved
  // promise, so the caller's await is the only turn of the microtask queue they cost.
  return (db: Kysely<DatabaseSchema>, ...args: Args): Promise<Row[]> => {
    try {
      const plan = planOf(db, args);
      const parameters = plan.slots.map((slot) => (typeof slot === "number" ? args[slot] : slot.constant));
      return run<Row>(db, plan.sql, parameters, plan);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/**
 * Runs a query built per call whose text repeats (its shape does not depend on its values' count),
 * outside a transaction, as compiled reads run: on PostgreSQL a named statement, parsed and planned
 * once per connection (within the named statements' limit). SQLite's executor prepares the text
 * again on each call, as kysely would: use it where the database is PostgreSQL.
 */
export function runBuilt<Row>(db: Kysely<DatabaseSchema>, query: CompiledQuery<Row>): Promise<Row[]> {
  return run<Row>(db, query.sql, query.parameters);
}

/**
 * Runs `sql` through `db`'s direct executor while it is free (`plan` keeps what it prepared), else
 * a read beside the transaction that holds it, else through kysely (after that transaction). Only a
 * database, never one of its transactions, has a direct executor.
 */
function run<Row>(
  db: Kysely<DatabaseSchema>,
  sql: string,
  parameters: readonly unknown[],
  plan?: Plan,
): Promise<Row[]> {
  const direct = directExecutors.get(db);
  if (direct?.isFree()) {
    if (plan) plan.direct ??= direct.prepare(sql);
    const prepared = plan?.direct ?? direct.prepare(sql);
    return Promise.resolve(prepared(parameters) as Row[] | Promise<Row[]>);
  }
  const beside = direct && besideOf(direct, sql, plan);
  if (beside) return Promise.resolve(beside(parameters) as Row[]);
  return db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters])).then(({ rows }) => rows);
}

/** `sql` as the executor runs it beside a transaction, prepared once per plan; undefined if it cannot. */
function besideOf(direct: DirectExecutor, sql: string, plan?: Plan) {
  if (!direct.prepareBeside) return undefined;
  if (!plan) return direct.prepareBeside(sql);
  if (plan.beside === undefined) plan.beside = direct.prepareBeside(sql) ?? null;
  return plan.beside ?? undefined;
}

/**
 * A compiled read whose query depends on the database's features (its SQL dialect's helpers): one
 * per features object, so repositories made for each transaction share the plans.
 */
export function compiledReadWith<Args extends unknown[], Row>(
  build: (db: Kysely<DatabaseSchema>, features: SqlFeatures, ...args: Args) => Compilable<Row>,
) {
  const byFeatures = new WeakMap<SqlFeatures, ReturnType<typeof compiledRead<Args, Row>>>();
  return (features: SqlFeatures) => {
    let read = byFeatures.get(features);
    if (!read) {
      read = compiledRead<Args, Row>((db, ...args) => build(db, features, ...args));
      byFeatures.set(features, read);
    }
    return read;
  };
}

/** Counts above this are built per call: each count kept holds a plan and a prepared statement. */
export const LARGEST_COMPILED_COUNT = 64;

/**
 * For queries whose shape depends on how many values they take (`in (…)`, multi-row inserts): one
 * compiled query per count, built on first use. Requests repeat the same few counts; larger counts,
 * which a caller could vary at will, are built each time so the kept plans stay bounded.
 */
export function compiledByCount<Row>(
  build: (db: Kysely<DatabaseSchema>, count: number, ...args: unknown[]) => Compilable<Row>,
) {
  const byCount = new Map<number, ReturnType<typeof compiledRead<unknown[], Row>>>();
  return async (db: Kysely<DatabaseSchema>, count: number, ...args: unknown[]): Promise<Row[]> => {
    if (count > LARGEST_COMPILED_COUNT) {
      return (await db.executeQuery<Row>(build(db, count, ...args).compile())).rows;
    }
    let query = byCount.get(count);
    if (!query) {
      query = compiledRead<unknown[], Row>((database, ...values) => build(database, count, ...values));
      byCount.set(count, query);
    }
    return query(db, ...args);
  };
}

/** A condition true where the column holds one of the ids a statement was given. */
export type AmongIds = (column: string) => Expression<SqlBool>;

/**
 * For statements that take a list of ids a request sets the length of (`build` uses `among` for
 * it): up to `LARGEST_COMPILED_COUNT` ids, written into the statement, one compiled statement per
 * count (the planner sees each id); past that, one statement taking the ids as one list parameter
 * (`SqlFeatures.listParameter`), so any number of ids stays within the database's limits. `build`
 * also gets the database's features, for their SQL helpers.
 */
export function compiledForIds<Row>(
  build: (
    db: Kysely<DatabaseSchema>,
    among: AmongIds,
    features: SqlFeatures,
    ...args: unknown[]
  ) => Compilable<Row>,
) {
  type Read = ReturnType<typeof compiledRead<unknown[], Row>>;
  const byFeatures = new WeakMap<SqlFeatures, { byCount: Map<number, Read>; listed?: Read }>();
  return (db: Kysely<DatabaseSchema>, features: SqlFeatures, ids: readonly string[], ...args: unknown[]) => {
    let reads = byFeatures.get(features);
    if (!reads) {
      reads = { byCount: new Map() };
      byFeatures.set(features, reads);
    }
    const count = ids.length;
    if (count > LARGEST_COMPILED_COUNT) {
      reads.listed ??= compiledRead<unknown[], Row>((database, list, ...values) =>
        build(database, (column) => features.inList(sql.ref(column), list), features, ...values),
      );
      return reads.listed(db, features.listParameter(ids), ...args);
    }
    let query = reads.byCount.get(count);
    if (!query) {
      query = compiledRead<unknown[], Row>((database, ...values) => {
        const idValues = values.slice(0, count);
        const among: AmongIds = (column) =>
          count > 0 ? sql<SqlBool>`${sql.ref(column)} in (${sql.join(idValues)})` : sql<SqlBool>`1 = 0`;
        return build(database, among, features, ...values.slice(count));
      });
      reads.byCount.set(count, query);
    }
    return query(db, ...ids, ...args);
  };
}
