import type { DirectExecutor } from "@service-api/adapters-kysely";
import type pg from "pg";
import { isStalePlan } from "./postgres-unavailability.js";

/**
 * Names for the hot statements, so each connection parses and plans them once and then only binds
 * and executes them. Only statements compiled once (`compiledRead`) ask for a name, and at most
 * `limit` texts get one: PostgreSQL keeps a named statement for the life of its connection.
 * When a table changes under a prepared statement (a newer instance migrated), every name is
 * renewed, so each connection prepares its statements again; the failed call runs again
 * (`isPostgresConflict`).
 */
export class NamedStatements {
  /** Text → its number; the name also carries the generation. */
  readonly #numbers = new Map<string, number>();
  #generation = 1;

  constructor(readonly limit: number) {}

  /** A name for `text`, kept for good; undefined once `limit` names are given. */
  claim(text: string): string | undefined {
    if (!this.#numbers.has(text) && this.#numbers.size < this.limit) {
      this.#numbers.set(text, this.#numbers.size + 1);
    }
    return this.#nameOf(text);
  }

  /** The query to send: named when the text has a name. */
  config(text: string, values: readonly unknown[]): pg.QueryConfig {
    const name = this.#nameOf(text);
    return name === undefined ? { text, values: [...values] } : { name, text, values: [...values] };
  }

  /** Sends `text` with `send`; a stale plan renews every name before the error goes on. */
  async send<T>(text: string, values: readonly unknown[], send: (query: pg.QueryConfig) => Promise<T>) {
    try {
      return await send(this.config(text, values));
    } catch (error) {
      if (isStalePlan(error)) this.#generation += 1;
      throw error;
    }
  }

  /** How many texts have a name. */
  get size(): number {
    return this.#numbers.size;
  }

  #nameOf(text: string): string | undefined {
    const number = this.#numbers.get(text);
    return number === undefined ? undefined : `service_api_${this.#generation}_${number}`;
  }
}

/**
 * Runs compiled statements straight on the pool, named, without kysely's connection handling
 * (a promise chain per statement). Transactions keep going through kysely on their connection.
 */
export function postgresDirectExecutor(
  pool: pg.Pool,
  statements: NamedStatements,
  onQuery?: (sql: string, parameters: readonly unknown[]) => void,
): DirectExecutor {
  return {
    isFree: () => true,
    prepare(sql) {
      statements.claim(sql);
      return async (parameters) => {
        onQuery?.(sql, parameters);
        return (await statements.send(sql, parameters, (query) => pool.query(query))).rows;
      };
    },
  };
}

/**
 * The pool as kysely's dialect sees it, whose connections send a named statement wherever the
 * text has a name (a compiled read inside a transaction).
 */
export function namingPool(pool: pg.Pool, statements: NamedStatements): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return (...args: Parameters<pg.PoolClient["query"]>) =>
          typeof args[0] === "string"
            ? statements.send(args[0], (args[1] as unknown[] | undefined) ?? [], (query) =>
                target.query(query),
              )
            : target.query(...args);
      },
    });
  };
  return new Proxy(pool, {
    get(target, property, receiver) {
      return property === "connect" ? connect : Reflect.get(target, property, receiver);
    },
  });
}
