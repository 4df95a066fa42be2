import type { DirectExecutor } from "@service-api/adapters-kysely";
import pg from "pg";
import { isStalePlan } from "./postgres-unavailability.js";

/** What pg builds from a row description (pg 8's `Result` internals): the columns, one parser each, the empty row. */
interface Described {
  fields: unknown[];
  parsers: unknown[];
  emptyRow: object;
}

/** The parts of pg 8's `Query` that `DescribedOnceQuery` reads and sets. */
interface QueryInternals {
  name?: string;
  values?: unknown[];
  callback?: unknown;
  _accumulateRows: boolean;
  _result: {
    fields: unknown[];
    _parsers: unknown[];
    _prebuiltEmptyResultObject: object;
  };
  listeners(event: string): unknown[];
  hasBeenParsed(connection: unknown): boolean;
}

/** pg 8's `Query` methods that `DescribedOnceQuery` extends. */
const pgQuery = pg.Query.prototype as unknown as {
  prepare(connection: unknown): void;
  handleRowDescription(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
};

const SKIP_DESCRIBE = Symbol("skipDescribe");

/** The part of pg 8's `Connection` a query's `prepare` describes its portal with. */
interface DescribingConnection {
  describe(message: unknown): void;
  [SKIP_DESCRIBE]?: boolean;
}

/**
 * Gives the connection, once, a `describe` that sends nothing while `SKIP_DESCRIBE` is set, so a
 * query can leave out the Describe message pg's `prepare` always sends.
 */
function describeUnlessSkipped(connection: DescribingConnection): void {
  if (SKIP_DESCRIBE in connection) return;
  const describe = connection.describe;
  connection[SKIP_DESCRIBE] = false;
  connection.describe = function (this: DescribingConnection, message: unknown) {
    if (!this[SKIP_DESCRIBE]) describe.call(this, message);
  };
}

/**
 * A named statement's query that is described once per connection. At its first call pg asks for
 * the row description and builds a parser per column and the empty row from it; they are kept.
 * Later calls send only Bind, Execute and Sync: no Describe, so PostgreSQL sends no description
 * (for Get Document's 60 columns, 2.5 KB a call) and pg neither parses one nor builds the parsers
 * again. Kept per connection: on its connection a name's columns cannot change (PostgreSQL refuses
 * to run a prepared statement whose result changed shape, and the names are then renewed), but a
 * connection opened after another instance migrated prepares the same name with the new columns.
 */
class DescribedOnceQuery extends pg.Query {
  constructor(
    config: pg.QueryConfig & { callback: unknown },
    private readonly described: Map<string, Described>,
  ) {
    // pg copies a config object by its property descriptors (4 µs a query); text it only wraps.
    super(config.text);
    const query = this as unknown as QueryInternals;
    query.name = config.name;
    query.values = config.values;
    query.callback = config.callback;
  }

  prepare(connection: DescribingConnection): void {
    const query = this as unknown as QueryInternals;
    const known = query.name === undefined ? undefined : this.described.get(query.name);
    if (!known || !query.hasBeenParsed(connection)) {
      pgQuery.prepare.call(this, connection);
      return;
    }
    const result = query._result;
    result.fields = known.fields;
    result._parsers = known.parsers;
    result._prebuiltEmptyResultObject = known.emptyRow;
    query._accumulateRows = Boolean(query.callback) || query.listeners("row").length === 0;
    describeUnlessSkipped(connection);
    connection[SKIP_DESCRIBE] = true;
    try {
      pgQuery.prepare.call(this, connection);
    } finally {
      connection[SKIP_DESCRIBE] = false;
    }
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    pgQuery.handleRowDescription.call(this, message);
    this.#remember();
  }

  /** A statement that returns no rows (a write without `RETURNING`) gets no row description. */
  handleCommandComplete(message: unknown, connection: unknown): void {
    const query = this as unknown as QueryInternals;
    if (query.name !== undefined && !this.described.has(query.name)) this.#remember();
    pgQuery.handleCommandComplete.call(this, message, connection);
  }

  #remember(): void {
    const query = this as unknown as QueryInternals;
    const result = query._result;
    if (query.name !== undefined)
      this.described.set(query.name, {
        fields: result.fields,
        parsers: result._parsers,
        emptyRow: result._prebuiltEmptyResultObject,
      });
  }
}

/** An error the server reported for a statement, not one that ended the session (FATAL, PANIC). */
const leavesConnectionUsable = (error: unknown) =>
  error instanceof pg.DatabaseError && error.severity !== "FATAL" && error.severity !== "PANIC";

/**
 * Runs `use` on a connection of the pool. The connection goes back to the pool unless it broke: a
 * statement the server refused leaves it usable (`pool.query` closes it after any error).
 */
async function onPooledConnection<T>(pool: pg.Pool, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection that fails while in use emits `error` (more than once, maybe); unheard, it would
  // end the process.
  const onBroken = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onBroken);
  try {
    return await use(client);
  } catch (error) {
    if (!leavesConnectionUsable(error)) broken ??= error as Error;
    throw error;
  } finally {
    client.removeListener("error", onBroken);
    client.release(broken);
  }
}

/**
 * Names for the hot statements, so each connection parses and plans them once and then only binds
 * and executes them. Only statements whose text repeats (`compiledRead`, `runBuilt`) ask for a name, and at most
 * `limit` texts get one: PostgreSQL keeps a named statement for the life of its connection.
 * When a table changes under a prepared statement (a newer instance migrated), every name is
 * renewed, so each connection prepares its statements again; the failed call runs again
 * (`isPostgresConflict`).
 */
export class NamedStatements {
  /** Text → its number; the name also carries the generation. */
  readonly #numbers = new Map<string, number>();
  /** Per connection, name → its columns' parsers; this generation's only. */
  #described = new WeakMap<pg.ClientBase, Map<string, Described>>();
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
  send<T>(text: string, values: readonly unknown[], send: (query: pg.QueryConfig) => Promise<T>) {
    return this.#renewingNames(() => send(this.config(text, values)));
  }

  /**
   * Runs `text` on a connection of the pool. Unlike `pool.query`, a statement the server refuses (a
   * lock not available, a unique name taken) leaves its connection in the pool instead of closing it.
   */
  sendToPool(pool: pg.Pool, text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    const config = this.config(text, values);
    return this.#renewingNames(() => onPooledConnection(pool, (client) => this.query(client, config)));
  }

  /** Sends `config` on `client`: a named statement as a query described once per connection. */
  query(client: pg.ClientBase, config: pg.QueryConfig): Promise<pg.QueryResult> {
    // Text and values rather than the config object, which pg would copy (see DescribedOnceQuery).
    if (config.name === undefined) return client.query(config.text, config.values);
    let described = this.#described.get(client);
    if (!described) {
      described = new Map();
      this.#described.set(client, described);
    }
    const onConnection = described;
    return new Promise<pg.QueryResult>((resolve, reject) => {
      const callback = (error: Error | null, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result);
      client.query(new DescribedOnceQuery({ ...config, callback }, onConnection));
    });
  }

  async #renewingNames<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (isStalePlan(error)) {
        this.#generation += 1;
        this.#described = new WeakMap();
      }
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
        return (await statements.sendToPool(pool, sql, parameters)).rows;
      };
    },
  };
}

/**
 * The pool as kysely's dialect sees it, whose connections send a named statement wherever the
 * text has a name (a compiled read inside a transaction), described once per connection.
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
                statements.query(target, query),
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
