import type { Store } from "@service-api/ports";
import { anApiKey, aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "./testing/test-databases.js";

const available = await requirePostgresForTests();

/**
 * The access revision on PostgreSQL comes from notifications, not a query per request, and is
 * never trusted while the listening connection is down.
 */
describe.skipIf(!available)("the access listener", () => {
  let database: TestDatabase;
  let url: string;
  let store: Store;
  let other: Store;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  afterEach(async () => {
    await store?.close();
    await other?.close();
  });

  async function open(reconnectMs = 200) {
    url = await createTestSchema(database.url);
    statements.length = 0;
    store = await openPostgresStore({
      databaseUrl: url,
      accessListener: { reconnectMs },
      onQuery: (sql) => statements.push(sql),
    });
    other = await openPostgresStore({ databaseUrl: url, accessListener: false });
    await other.repositories.workspaces.save(aWorkspace({ id: WORKSPACE }));
  }
  const WORKSPACE = crypto.randomUUID();
  /** A change another instance makes: a new key, which raises the revision. */
  const changeAccess = () =>
    other.repositories.apiKeys.save(
      anApiKey(WORKSPACE, crypto.randomUUID(), { kind: "dataset", appId: null }),
    );
  const readsRevision = async () => {
    statements.length = 0;
    const revision = await store.repositories.apiKeys.accessRevision();
    return { revision, queried: statements.some((sql) => sql.includes("access_revision")) };
  };
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let waited = 0; !(await check()); waited += 10) {
      if (waited > 5_000) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const terminateListener = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rowCount } = await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'service-api-access-listener' and datname = current_database()`,
    );
    await client.end();
    return rowCount;
  };

  it("knows the revision without a statement, and hears another instance's change within milliseconds", async () => {
    await open();
    await waitFor(async () => !(await readsRevision()).queried);
    const delays: number[] = [];
    for (let change = 0; change < 20; change++) {
      const before = (await readsRevision()).revision;
      await changeAccess();
      const committed = performance.now();
      let seen = await readsRevision();
      // Heard: the listener knows the new revision (it reads it when told), no request asks the store.
      while (seen.revision === before || seen.queried) {
        await new Promise((resolve) => setImmediate(resolve));
        seen = await readsRevision();
      }
      delays.push(performance.now() - committed);
      expect(seen.queried).toBe(false);
      expect(seen.revision).toBeGreaterThan(before);
    }
    delays.sort((a, b) => a - b);
    console.info(
      `access change heard after ${delays[10]!.toFixed(2)} ms (median), ${delays.at(-1)!.toFixed(2)} ms (slowest of 20)`,
    );
  });

  it("reads the revision from the store while the listener is down, and listens again after", async () => {
    await open(1_000);
    await waitFor(async () => !(await readsRevision()).queried);
    expect(await terminateListener()).toBe(1);
    // Once the connection is known lost, every read asks the store, so a change made meanwhile
    // (whose notification nobody hears) shows at the next read.
    await waitFor(async () => (await readsRevision()).queried);
    const before = (await readsRevision()).revision;
    await changeAccess();
    const during = await readsRevision();
    expect(during).toEqual({ revision: before + 1, queried: true });
    // Back to listening: the revision it starts from includes what changed while it was down.
    await waitFor(async () => !(await readsRevision()).queried);
    expect((await readsRevision()).revision).toBe(before + 1);
    await changeAccess();
    await waitFor(async () => (await readsRevision()).revision === before + 2);
  });

  it("believes no announced number: a forged one only makes it read, and later revocations count", async () => {
    await open();
    // Settled: the listener knows what the store holds (the workspace saved as it began included).
    const before = await other.repositories.apiKeys.accessRevision();
    await waitFor(async () => {
      const seen = await readsRevision();
      return seen.revision === before && !seen.queried;
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Any role that may connect may NOTIFY: a number past every real revision.
      await client.query("select pg_notify('service_api_access', current_schema() || ' 9000000000000000')");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await readsRevision()).toEqual({ revision: before, queried: false });
      await changeAccess();
      await waitFor(async () => {
        const seen = await readsRevision();
        return seen.revision === before + 1 && !seen.queried;
      });
    } finally {
      await client.end();
    }
  });

  it("hears only its own schema's changes", async () => {
    await open();
    const neighbour = await openPostgresStore({ databaseUrl: await createTestSchema(database.url) });
    try {
      await neighbour.repositories.workspaces.save(aWorkspace({ id: WORKSPACE }));
      await waitFor(async () => !(await readsRevision()).queried);
      const before = (await readsRevision()).revision;
      for (let change = 0; change < 5; change++) {
        await neighbour.repositories.apiKeys.save(
          anApiKey(WORKSPACE, crypto.randomUUID(), { kind: "dataset", appId: null }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await readsRevision()).revision).toBe(before);
    } finally {
      await neighbour.close();
    }
  });
});
