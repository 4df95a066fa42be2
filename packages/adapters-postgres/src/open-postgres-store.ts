import { type DatabaseSchema, kyselyStore } from "@service-api/adapters-kysely";
import type { Store } from "@service-api/ports";
import { Kysely, PostgresDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { postgresMigrations } from "./migrations/index.js";
import { postgresTypes } from "./postgres-types.js";

/** The pool's bounds. Every instance holds at most `max` connections. */
export interface PostgresPoolOptions {
  /** Connections held at most. */
  max: number;
  /** How long a request waits to connect (or for a free connection) before failing, in ms. */
  connectionTimeoutMs: number;
  /** How long the server lets one statement run before cancelling it, in ms. */
  statementTimeoutMs: number;
  /** How long an idle connection is kept, in ms. */
  idleTimeoutMs: number;
}

export const DEFAULT_POOL: PostgresPoolOptions = {
  max: 10,
  connectionTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
};

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`, with any libpq-style parameters pg understands. */
  databaseUrl: string;
  pool?: Partial<PostgresPoolOptions>;
  /** Told when the server closes an idle connection; the store itself carries on. */
  onIdleError?: (error: Error) => void;
}

/**
 * Connects a bounded pool, applies pending migrations (several instances starting at once take
 * turns: kysely holds an advisory lock while migrating) and returns the store.
 */
export async function openPostgresStore({
  databaseUrl,
  pool: bounds = {},
  onIdleError,
}: PostgresStoreOptions): Promise<Store> {
  const { max, connectionTimeoutMs, statementTimeoutMs, idleTimeoutMs } = { ...DEFAULT_POOL, ...bounds };
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    idleTimeoutMillis: idleTimeoutMs,
    statement_timeout: statementTimeoutMs,
    application_name: "service-api",
    types: postgresTypes,
  });
  // An idle connection the server drops (a restart, a failover) must not crash the process: the
  // pool discards it, and the next query opens another or fails on its own.
  pool.on("error", (error) => onIdleError?.(error));
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  try {
    // Kysely looks for its bookkeeping tables in every schema; name the one we work in.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const migrator = new Migrator({
      db,
      provider: postgresMigrations,
      migrationTableSchema: rows[0]?.schema,
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw new Error("PostgreSQL migration failed", { cause: error });
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return kyselyStore(db);
}

/** Whether a `DATABASE_URL` names a PostgreSQL database. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}
