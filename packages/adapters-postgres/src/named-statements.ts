import type { DirectExecutor } from "@service-api/adapters-kysely";
import type pg from "pg";

/**
 * Names for the hot statements, so each connection parses and plans them once and then only binds
 * and executes them. Only statements compiled once (`compiledRead`) ask for a name, and at most
 * `limit` texts get one: PostgreSQL keeps a named statement for the life of its connection.
 */
export class NamedStatements {
  readonly #names = new Map<string, string>();

  constructor(readonly limit: number) {}

  /** A name for `text`, kept for good; undefined once `limit` names are given. */
  claim(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.limit) {
      name = `service_api_${this.#names.size + 1}`;
      this.#names.set(text, name);
    }
    return name;
  }

  /** The query to send: named when the text has a name. */
  config(text: string, values: readonly unknown[]): pg.QueryConfig {
    const name = this.#names.get(text);
    return name === undefined ? { text, values: [...values] } : { name, text, values: [...values] };
  }

  /** How many texts have a name. */
  get size(): number {
    return this.#names.size;
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
        return (await pool.query(statements.config(sql, parameters))).rows;
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
        return (text: unknown, values?: unknown[]) =>
          typeof text === "string"
            ? target.query(statements.config(text, values ?? []))
            : target.query(text as never);
      },
    });
  };
  return new Proxy(pool, {
    get(target, property, receiver) {
      return property === "connect" ? connect : Reflect.get(target, property, receiver);
    },
  });
}
