import { StoreUnavailableError } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresPoolOptions } from "./open-postgres-store.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

const available = await requirePostgresForTests();

/** A store on a schema of its own, one connection, whose monitor's events are kept in `events`. */
async function watchedStore(databaseUrl: string, pool: Partial<PostgresPoolOptions>) {
  const events: string[] = [];
  const code = (error: Error) => (error as { code?: string }).code;
  const store = await openPostgresStore({
    databaseUrl,
    pool: { max: 1, ...pool },
    fieldCountFolding: false,
    accessListener: false,
    monitor: {
      unavailable: (error) => events.push(`unavailable ${code(error)}`),
      lockWaitExceeded: (error) => events.push(`lock held ${code(error)}`),
      available: () => {},
      connectionLost: () => events.push("lost"),
    },
  });
  return { store, events };
}

/** Another connection holding `workspaces` locked while `work` runs. */
async function whileWorkspacesLocked(databaseUrl: string, work: () => Promise<void>): Promise<void> {
  const blocker = new pg.Client({ connectionString: databaseUrl });
  await blocker.connect();
  try {
    await blocker.query("begin");
    await blocker.query("lock table workspaces in access exclusive mode");
    await work();
  } finally {
    await blocker.query("rollback");
    await blocker.end();
  }
}

/**
 * A workspace saved, then saved again while another connection holds its table: the second save is
 * refused as a lock (55P03, a lock line, no outage). How long it waited.
 */
async function refusedAsLocked(databaseUrl: string, store: Store, events: string[]) {
  const workspace = aWorkspace();
  await store.repositories.workspaces.save(workspace);
  let waitedMs = 0;
  await whileWorkspacesLocked(databaseUrl, async () => {
    const started = performance.now();
    const failure = await store.repositories.workspaces
      .save({ ...workspace, name: "while locked" })
      .catch((error: unknown) => error);
    waitedMs = performance.now() - started;
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).cause).toMatchObject({ code: "55P03" });
    expect(events).toEqual(["lock held 55P03"]);
  });
  return { workspace, waitedMs };
}

describe.skipIf(!available)("a lock held elsewhere, on PostgreSQL", () => {
  const database = useTestDatabase();

  it("refuses a write past lockTimeoutMs as a lock, not an outage, on the connection that migrated too", async () => {
    const databaseUrl = await createTestSchema(database.url);
    // One connection: the one that migrated (without the lock time-out) is the one that writes.
    const { store, events } = await watchedStore(databaseUrl, { lockTimeoutMs: 200 });
    const { workspace, waitedMs } = await refusedAsLocked(databaseUrl, store, events);
    expect(waitedMs).toBeGreaterThanOrEqual(150);
    // Well before the statement time-out (15 s), which would have been an outage.
    expect(waitedMs).toBeLessThan(5_000);
    await store.repositories.workspaces.save({ ...workspace, name: "after" });
    expect((await store.repositories.workspaces.findById(workspace.id))?.name).toBe("after");
    await store.close();
  });

  it("ends a lock wait before a short statement time-out when no lock time-out is given: busy, not an outage", async () => {
    const databaseUrl = await createTestSchema(database.url);
    const { store, events } = await watchedStore(databaseUrl, { statementTimeoutMs: 600 });
    // The lock time-out (half the statement time-out) ends the wait, not the statement time-out.
    await refusedAsLocked(databaseUrl, store, events);
    await store.close();
  });

  it("refuses a lock time-out given at or above the statement time-out before connecting, and reads an undefined bound as unset", async () => {
    const databaseUrl = await createTestSchema(database.url);
    await expect(
      openPostgresStore({ databaseUrl, pool: { statementTimeoutMs: 300, lockTimeoutMs: 300 } }),
    ).rejects.toThrow(/^pool\.lockTimeoutMs: expected less than pool\.statementTimeoutMs \(300\)/);
    const store = await openPostgresStore({
      databaseUrl,
      pool: { statementTimeoutMs: undefined, lockTimeoutMs: undefined },
      fieldCountFolding: false,
      accessListener: false,
    });
    expect(await store.ping()).toBeUndefined();
    await store.close();
  });

  it("refuses a database URL whose time-outs would end every lock wait as an outage, before migrating", async () => {
    const schemaUrl = await createTestSchema(database.url);
    const withOptions = (options: string) => {
      const url = new URL(schemaUrl);
      url.searchParams.set("options", `${url.searchParams.get("options")} ${options}`);
      return url.toString();
    };
    // The URL's lock time-out over the statement time-out (15 s by default).
    await expect(openPostgresStore({ databaseUrl: withOptions("-c lock_timeout=20000") })).rejects.toThrow(
      /lock_timeout 20000 ms, not below statement_timeout 15000 ms \(the database URL sets lock_timeout 20000 ms, not 5000\)/,
    );
    // The URL's statement time-out under the lock time-out the pool derived from its own (5 s).
    const shortStatements = new URL(schemaUrl);
    shortStatements.searchParams.set("statement_timeout", "3000");
    await expect(openPostgresStore({ databaseUrl: shortStatements.toString() })).rejects.toThrow(
      /the database URL sets statement_timeout 3000 ms, not 15000\)/,
    );
    const client = new pg.Client({ connectionString: schemaUrl });
    await client.connect();
    const tables = await client.query(
      "select 1 from information_schema.tables where table_schema = current_schema()",
    );
    await client.end();
    expect(tables.rowCount).toBe(0);
    // A URL's lock time-out below the statement time-out stands.
    const store = await openPostgresStore({
      databaseUrl: withOptions("-c lock_timeout=750"),
      fieldCountFolding: false,
      accessListener: false,
    });
    expect(await store.ping()).toBeUndefined();
    await store.close();
  });
});
