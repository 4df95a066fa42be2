import {
  type DatabaseSchema,
  kyselyStore,
  migrationFailed,
  runCompiledDirectly,
  type SqlFeatures,
} from "@service-api/adapters-kysely";
import type { Store, StoreMonitor } from "@service-api/ports";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { AccessListener, type AccessListenerOptions, DEFAULT_ACCESS_LISTENER } from "./access-listener.js";
import { activeBackendsOn } from "./active-backends.js";
import { connectionSettings } from "./connection-settings.js";
import { cutsLockWaits, effectiveTimeOuts, effectiveTimeOutsProblem } from "./effective-time-outs.js";
import {
  checkedFolding,
  DEFAULT_FIELD_COUNT_FOLDING,
  FieldCountFolder,
  type FieldCountFoldingOptions,
} from "./field-count-folding.js";
import { migratorOf } from "./migrations/index.js";
import { NamedStatements, namingPool, postgresDirectExecutor } from "./named-statements.js";
import { ConnectionSockets, openedWithin } from "./open-time-out.js";
import { postgresFeatures } from "./postgres-features.js";
import { postgresTypes } from "./postgres-types.js";
import { isLockNotAvailable, isPostgresConflict, isPostgresUnavailable } from "./postgres-unavailability.js";
import { UnansweredStatements } from "./unanswered-statements.js";

/** The pool's bounds. Every instance holds at most `max` connections. */
export interface PostgresPoolOptions {
  /** Connections held at most. */
  max: number;
  /** How long a request waits to connect (or for a free connection) before failing, in ms. */
  connectionTimeoutMs: number;
  /**
   * How long the server lets one statement run before cancelling it, in ms. A statement that gets
   * no answer for this long and a second more (the network stalled) fails as the store unavailable,
   * its connection closed (`UnansweredStatements`); 0: no limit, neither on the server nor here.
   */
  statementTimeoutMs: number;
  /**
   * How long a statement waits for a lock another transaction holds (an import's, a long write's)
   * before it is refused, in ms (`lock_timeout`): a busy store, not an outage. Must be below
   * `statementTimeoutMs` when both are above 0 (that one would cut the wait first, as an outage);
   * 0: no limit. Left unset, `lockTimeoutFor` the statement time-out. Migrations wait as before.
   */
  lockTimeoutMs: number;
  /** How long an idle connection is kept, in ms. */
  idleTimeoutMs: number;
  /**
   * How many hot statements are sent as named prepared statements, each parsed and planned once per
   * connection; 0 sends every statement unnamed (for a pooler that cannot keep them).
   */
  namedStatements: number;
  /**
   * How long opening the store (connecting, migrating, starting to listen) may take before it
   * fails and its connections are closed, in ms; 0 no limit. Without it, a server that took the
   * connection and stopped answering would hold the open for ever.
   */
  openTimeoutMs: number;
}

export const DEFAULT_POOL: PostgresPoolOptions = {
  max: 10,
  connectionTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  lockTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  namedStatements: 200,
  openTimeoutMs: 30_000,
};

/**
 * The lock time-out a pool takes when none is given: 5000 ms, or half the statement time-out when
 * that is less (at least 1 ms); 5000 when the statement time-out is 0 (no limit). A lock wait then
 * has time to end as a lock (a busy store) before the statement time-out would cut it (an outage).
 */
export function lockTimeoutFor(statementTimeoutMs: number): number {
  if (statementTimeoutMs === 0) return DEFAULT_POOL.lockTimeoutMs;
  return Math.max(1, Math.min(DEFAULT_POOL.lockTimeoutMs, Math.floor(statementTimeoutMs / 2)));
}

/**
 * Why `lockTimeoutMs` cannot take effect beside `statementTimeoutMs` (named `statementTimeoutName`),
 * or undefined: a lock time-out at or above a statement time-out never ends a wait.
 */
export function lockTimeoutProblem(
  lockTimeoutMs: number,
  statementTimeoutMs: number,
  statementTimeoutName: string,
): string | undefined {
  if (!cutsLockWaits({ statementTimeoutMs, lockTimeoutMs })) return undefined;
  return `expected less than ${statementTimeoutName} (${statementTimeoutMs}), or 0: the statement time-out would end every lock wait first, as an outage`;
}

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`, with any libpq-style parameters pg understands. */
  databaseUrl: string;
  pool?: Partial<PostgresPoolOptions>;
  /** Told of outages, recoveries and dropped connections. */
  monitor?: StoreMonitor;
  /** Called with every statement run, with its parameters: for diagnostics and tests. */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /**
   * How the instance hears of key, app and workspace changes (LISTEN on one more connection), or
   * false to read the access revision on every authenticated request instead.
   */
  accessListener?: Partial<AccessListenerOptions> | false;
  /**
   * How often this instance moves fields' counter rows back into their fields, so that reading a
   * field's count sums few rows; false never (another instance may).
   */
  fieldCountFolding?: Partial<FieldCountFoldingOptions> | false;
}

/**
 * Connects a bounded pool, applies pending migrations (several instances starting at once take
 * turns: kysely holds an advisory lock while migrating) and returns the store. An open that takes
 * longer than `pool.openTimeoutMs` fails, its connections closed.
 */
export async function openPostgresStore({
  fieldCountFolding: folding = {},
  ...options
}: PostgresStoreOptions): Promise<Store> {
  // Checked before anything connects: refused, nothing is left open.
  const foldingOptions =
    folding === false ? undefined : checkedFolding({ ...DEFAULT_FIELD_COUNT_FOLDING, ...folding });
  // A bound given as undefined keeps its default, as `openStore` reads it.
  const given = Object.fromEntries(
    Object.entries(options.pool ?? {}).filter(([, value]) => value !== undefined),
  );
  const bounds: PostgresPoolOptions = { ...DEFAULT_POOL, ...given };
  if (given.lockTimeoutMs === undefined) bounds.lockTimeoutMs = lockTimeoutFor(bounds.statementTimeoutMs);
  else {
    const problem = lockTimeoutProblem(
      bounds.lockTimeoutMs,
      bounds.statementTimeoutMs,
      "pool.statementTimeoutMs",
    );
    if (problem) throw new RangeError(`pool.lockTimeoutMs: ${problem}`);
  }
  const sockets = new ConnectionSockets();
  const opening = openOn(sockets, { ...options, pool: bounds }, foldingOptions);
  return openedWithin(bounds.openTimeoutMs, opening, () => sockets.cut());
}

/** The store, its pool and its listener connected on `sockets`. */
async function openOn(
  sockets: ConnectionSockets,
  {
    databaseUrl,
    pool: bounds,
    monitor,
    onQuery,
    accessListener: listening = {},
  }: Omit<PostgresStoreOptions, "fieldCountFolding"> & { pool: PostgresPoolOptions },
  foldingOptions: FieldCountFoldingOptions | undefined,
): Promise<Store> {
  const { max, connectionTimeoutMs, statementTimeoutMs, lockTimeoutMs, idleTimeoutMs, namedStatements } =
    bounds;
  // Every statement of the pool (kysely's, transactions', the direct executor's) is on one of its
  // connections: a connection that stops answering is closed past the statement time-out.
  const unanswered = new UnansweredStatements(
    statementTimeoutMs,
    () => idleClientsOf(pool),
    activeBackendsOn(databaseUrl, sockets),
  );
  const Client = unanswered.clientClass();
  const pool = new pg.Pool({
    // Connection parameters the URL may give instead (as pg's `connectionString` lets it).
    statement_timeout: statementTimeoutMs,
    application_name: "service-api",
    ...connectionSettings(databaseUrl, { lockTimeoutMs }),
    // The pool's own, checked bounds and wiring: a URL's query (`?max=1`) does not replace them.
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    idleTimeoutMillis: idleTimeoutMs,
    types: postgresTypes,
    stream: sockets.stream,
    ...(Client && { Client }),
  });
  // A connection the server drops (a restart, a failover, pg_terminate_backend) emits "error" on
  // its client, in use or not; unheard, that ends the process. The query it ran fails on its own,
  // and the pool discards the connection when it comes back; an idle one is discarded at once.
  let connectionsLost = 0;
  const connectionLost = (error: Error) => {
    connectionsLost += 1;
    monitor?.connectionLost(error);
  };
  pool.on("connect", (client) => client.on("error", connectionLost));
  pool.on("error", () => {});
  const statements = new NamedStatements(namedStatements);
  const db = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: namingPool(pool, statements) }),
    log: onQuery && ((event) => onQuery(event.query.sql, event.query.parameters)),
  });
  let features: SqlFeatures;
  try {
    // Before migrating: a store refused changes nothing.
    const problem = effectiveTimeOutsProblem(await effectiveTimeOuts(db), {
      statementTimeoutMs,
      lockTimeoutMs,
    });
    if (problem) throw new RangeError(problem);
    await migrateToLatest(db);
    features = await featuresFor(db);
  } catch (error) {
    await db.destroy();
    unanswered.stop();
    throw error;
  }
  const listener =
    listening === false
      ? undefined
      : new AccessListener(databaseUrl, { ...DEFAULT_ACCESS_LISTENER, ...listening }, sockets.stream);
  await listener?.start();
  const folder = foldingOptions && new FieldCountFolder(db, foldingOptions, monitor);
  folder?.start();
  runCompiledDirectly(db, postgresDirectExecutor(pool, statements, onQuery));
  return kyselyStore(db, {
    isUnavailable: isPostgresUnavailable,
    isConflict: isPostgresConflict,
    isLocked: isLockNotAvailable,
    monitor,
    features,
    connectionsLost: () => connectionsLost,
    // Migration 0012: the counting triggers note their changes, counted once at the end.
    countsOnce: { begin: sql`select count_later()`, end: sql`select count_now()` },
    connections: () => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    ...(listener && { knownAccessRevision: () => listener.revision() }),
    onClose: async () => {
      // Connections close politely (pg waits for the server to hang up), which a stalled network
      // never lets end: past the grace, what is still open is cut. A no-op once all have closed.
      setTimeout(() => sockets.cut(), POLITE_CLOSE_MS).unref();
      await folder?.stop();
      await listener?.close();
      // The calls have ended (the store waited for them), the folder's too: nothing is left to wait on.
      unanswered.stop();
    },
  });
}

/**
 * Applies pending migrations on one connection without the pool's lock time-out: instances that
 * start together take turns (kysely's advisory lock) while one migrates, as long as the statement
 * time-out allows, and a migration waits for the locks its schema change needs as long.
 */
async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`set lock_timeout = 0`.execute(connection);
    const { error } = await (await migratorOf(connection)).migrateToLatest();
    // Failed, the store does not open: the connection closes with the pool.
    if (error) throw migrationFailed("PostgreSQL", error);
    await sql`reset lock_timeout`.execute(connection);
  });
}

/**
 * PostgreSQL's features, without early lock release where the role may not `setval` the commit
 * flush's sequence (migrated by its owner, served by a role granted the tables only): such a role
 * commits each write with its own flush, as before.
 */
async function featuresFor(db: Kysely<DatabaseSchema>): Promise<SqlFeatures> {
  const { rows } = await sql<{ may: boolean }>`
    select has_sequence_privilege('commit_flush_marks', 'UPDATE') as may`.execute(db);
  if (rows[0]?.may) return postgresFeatures;
  const { earlyLockRelease: _, ...withoutEarlyRelease } = postgresFeatures;
  return withoutEarlyRelease;
}

/** How long closing the store lets its connections close politely before it cuts them. */
export const POLITE_CLOSE_MS = 2_000;

/** pg-pool 3's idle connections (its internals: it offers no other way to see them). */
function idleClientsOf(pool: pg.Pool): pg.Client[] {
  const idle = (pool as unknown as { _idle?: { client: pg.Client }[] })._idle ?? [];
  return idle.map((item) => item.client);
}

/** Whether a `DATABASE_URL` names a PostgreSQL database. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}
