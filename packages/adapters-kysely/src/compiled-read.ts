import { type Compilable, CompiledQuery, type Kysely } from "kysely";
import type { DatabaseSchema } from "./schema.js";

const SENTINEL = "\u0000service-api-argument-";

type Plan = { sql: string; slots: (number | { constant: unknown })[] };

/**
 * A read compiled once per database and then run again with new arguments. Kysely builds and
 * compiles a query on every call, which costs more than the point lookup it runs; this builds it
 * once with a marker for each argument and remembers where each argument goes. Each argument must
 * reach the parameters unchanged (compared, set or inserted as is), so a marker can stand in for it;
 * writes qualify too.
 */
export function compiledRead<Args extends unknown[], Row>(
  build: (db: Kysely<DatabaseSchema>, ...args: Args) => Compilable<Row>,
) {
  const plans = new WeakMap<Kysely<DatabaseSchema>, Plan>();
  return async (db: Kysely<DatabaseSchema>, ...args: Args): Promise<Row[]> => {
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
    const parameters = plan.slots.map((slot) => (typeof slot === "number" ? args[slot] : slot.constant));
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(plan.sql, parameters));
    return rows;
  };
}

/**
 * For queries whose shape depends on how many values they take (`in (…)`, multi-row inserts): one
 * compiled query per count, built on first use. Requests repeat the same few counts.
 */
export function compiledByCount<Row>(
  build: (db: Kysely<DatabaseSchema>, count: number, ...args: unknown[]) => Compilable<Row>,
) {
  const byCount = new Map<number, ReturnType<typeof compiledRead<unknown[], Row>>>();
  return (db: Kysely<DatabaseSchema>, count: number, ...args: unknown[]): Promise<Row[]> => {
    let query = byCount.get(count);
    if (!query) {
      query = compiledRead<unknown[], Row>((database, ...values) => build(database, count, ...values));
      byCount.set(count, query);
    }
    return query(db, ...args);
  };
}
