import { randomBytes } from "node:crypto";
import { StoreUnavailableError } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aTag, aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  TEST_SERVER_URL,
} from "./testing/test-databases.js";

// Settings an operator (or a managed service) puts on the database or the role, which the store
// must serve under: its defaults, or an outage (503) where it cannot.

const available = await requirePostgresForTests();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function onServer(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function testDatabase() {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  return { ...database, name: new URL(database.url).pathname.slice(1) };
}

async function opened(databaseUrl: string): Promise<Store> {
  const store = await openPostgresStore({ databaseUrl, fieldCountFolding: false });
  cleanups.push(() => store.close());
  return store;
}

/** Ends the store's connections, so that the next ones start with the database's settings as now. */
const endConnectionsTo = (name: string) =>
  onServer(
    TEST_SERVER_URL,
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
  );

/** A store call that may first meet connections just ended (the pool discards them as it hears). */
async function settled<T>(call: () => Promise<T>): Promise<T | unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof StoreUnavailableError)) return error;
    }
  }
}

describe.runIf(available)("PostgreSQL's settings the store runs under", () => {
  it("each statement of a transaction sees what committed before it, though the database's default is REPEATABLE READ", async () => {
    const database = await testDatabase();
    await onServer(
      TEST_SERVER_URL,
      `alter database ${database.name} set default_transaction_isolation = 'repeatable read'`,
    );
    // A URL with its own options (a schema here) keeps them.
    const url = await createTestSchema(database.url);
    const store = await opened(url);
    const other = await opened(url);
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    await store.repositories.tags.save(aTag(workspace.id, { name: "first" }));

    const seen = await store.transaction(async (repositories) => {
      const before = (await repositories.tags.listInWorkspace(workspace.id)).length;
      await other.repositories.tags.save(aTag(workspace.id, { name: "committed meanwhile" }));
      const after = (await repositories.tags.listInWorkspace(workspace.id)).length;
      return { before, after };
    });
    expect(seen).toEqual({ before: 1, after: 2 });
    const schema = new URLSearchParams(new URL(url).search).get("options")!.split("=")[1]!;
    const { rows } = await onServer(
      database.url,
      `select count(*)::int as tables from information_schema.tables where table_schema = '${schema}' and table_name = 'tags'`,
    );
    expect(rows[0].tables).toBe(1);
  });

  it("answers a database that only reads (a standby, default_transaction_read_only) as unavailable for writes, and still reads", async () => {
    const database = await testDatabase();
    const store = await opened(database.url);
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    await onServer(TEST_SERVER_URL, `alter database ${database.name} set default_transaction_read_only = on`);
    await endConnectionsTo(database.name);

    const written = await settled(() => store.repositories.tags.save(aTag(workspace.id)));
    expect(written).toBeInstanceOf(StoreUnavailableError);
    expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
  });

  it("answers a login the server refuses (a role that may no longer log in) as unavailable", async () => {
    const role = `service_api_role_${randomBytes(4).toString("hex")}`;
    await onServer(TEST_SERVER_URL, `create role ${role} login`);
    // Dropped after the database it owns.
    cleanups.push(() => onServer(TEST_SERVER_URL, `drop role if exists ${role}`));
    const database = await testDatabase();
    await onServer(TEST_SERVER_URL, `alter database ${database.name} owner to ${role}`);
    const url = new URL(database.url);
    url.username = role;
    const store = await opened(url.toString());
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    await onServer(TEST_SERVER_URL, `alter role ${role} nologin`);
    await endConnectionsTo(database.name);

    const read = await settled(() => store.repositories.workspaces.findById(workspace.id));
    expect(read).toBeInstanceOf(StoreUnavailableError);
  });

  it("answers a database that takes no connections (ALLOW_CONNECTIONS false) as unavailable", async () => {
    const database = await testDatabase();
    const store = await opened(database.url);
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    await onServer(TEST_SERVER_URL, `alter database ${database.name} allow_connections false`);
    // Allowed again before it is dropped.
    cleanups.push(() => onServer(TEST_SERVER_URL, `alter database ${database.name} allow_connections true`));
    await endConnectionsTo(database.name);

    const read = await settled(() => store.repositories.workspaces.findById(workspace.id));
    expect(read).toBeInstanceOf(StoreUnavailableError);
  });

  it("says why migrating failed in its message: a database a newer version migrated, say", async () => {
    const database = await testDatabase();
    await (await openPostgresStore({ databaseUrl: database.url, fieldCountFolding: false })).close();
    await onServer(
      database.url,
      "insert into kysely_migration (name, timestamp) values ('9999-from-the-future', now()::text)",
    );
    await expect(openPostgresStore({ databaseUrl: database.url, fieldCountFolding: false })).rejects.toThrow(
      /^PostgreSQL migration failed: .*9999-from-the-future/,
    );
  });
});
