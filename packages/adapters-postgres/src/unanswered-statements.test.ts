import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";
import type { StoreMonitor } from "@service-api/ports";
import { aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgresStore, POLITE_CLOSE_MS } from "./open-postgres-store.js";
import { isPostgresUnavailable } from "./postgres-unavailability.js";
import { createTestDatabase, requirePostgresForTests, type TestDatabase } from "./testing/test-databases.js";
import {
  PROBE_TIMEOUT_MS,
  UNANSWERED_GRACE_MS,
  UnansweredStatementError,
  UnansweredStatements,
} from "./unanswered-statements.js";

const STATEMENT_TIMEOUT_MS = 300;
/** How long a statement may go unanswered: the statement time-out and the grace. */
const BOUND_MS = STATEMENT_TIMEOUT_MS + UNANSWERED_GRACE_MS;
/**
 * The bound, two sweeps (a quarter of the bound each), the question to the server that does not
 * answer, and slack for a slow machine: far less than "never".
 */
const FAILS_WITHIN_MS = BOUND_MS * 1.5 + PROBE_TIMEOUT_MS + 1_000;

/**
 * A TCP proxy in front of PostgreSQL that can stall: the connections stay up, nothing more passes
 * either way (a partition, a stalled proxy), and new ones are taken but never forwarded. `heal`
 * forwards new connections again; stalled ones stay stalled, as after a partition whose peer forgot them.
 */
async function stallingProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const clients = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let stalled = false;
  const server = createServer((client) => {
    clients.add(client);
    client.on("error", () => client.destroy());
    client.on("close", () => clients.delete(client));
    if (stalled) return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    upstream.on("error", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("close", () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const throughProxy = new URL(databaseUrl);
  throughProxy.port = String((server.address() as { port: number }).port);
  return {
    databaseUrl: throughProxy.toString(),
    /** Resolves once the proxy's side of every connection has closed, read again (a stalled one is paused). */
    closesAll: async () => {
      const closing = [...clients].map((client) => once(client, "close"));
      for (const client of clients) client.resume();
      await Promise.all(closing);
    },
    stall: () => {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    heal: () => {
      stalled = false;
    },
    close: async () => {
      for (const [, upstream] of pairs) upstream.destroy();
      for (const client of clients) client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** How `promise` settles within `ms`: its value, its error, or "pending". */
async function settledWithin<T>(promise: Promise<T>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<"pending">((resolve) => {
    timer = setTimeout(() => resolve("pending"), ms);
  });
  const started = performance.now();
  try {
    const outcome = await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: Error) => ({ error }),
      ),
      pending,
    ]);
    return { outcome, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

const monitor = () =>
  ({ unavailable: vi.fn(), available: vi.fn(), connectionLost: vi.fn() }) satisfies StoreMonitor;

const available = await requirePostgresForTests();
let database: TestDatabase | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (!available) return;
  database = await createTestDatabase();
  // Migrated once, without the tests' short statement time-out: a loaded machine's migration
  // statement may outlast it, and the stores under test only read and write.
  const migrating = await openPostgresStore({ databaseUrl: database.url, fieldCountFolding: false });
  await migrating.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await database?.drop();
});

describe.skipIf(!available)(
  "a statement PostgreSQL does not answer (the network stalled after the store opened)",
  () => {
    /** A store through a stalling proxy, with a workspace to read; closed (the proxy first) after the test. */
    async function proxiedStore() {
      const proxy = await stallingProxy(database!.url);
      const heard = monitor();
      const store = await openPostgresStore({
        databaseUrl: proxy.databaseUrl,
        pool: { statementTimeoutMs: STATEMENT_TIMEOUT_MS, max: 2, connectionTimeoutMs: 5_000 },
        monitor: heard,
        accessListener: false,
        fieldCountFolding: false,
      });
      // The proxy closes first, so that nothing of the store still waits on it.
      cleanups.push(() => store.close());
      cleanups.push(() => proxy.close());
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      return { proxy, store, heard, workspace };
    }

    /** Stalls `proxy` while `call` (started now) is in flight: how it settles, and how long it took. */
    async function stalledDuring<T>(
      proxy: Awaited<ReturnType<typeof stallingProxy>>,
      call: () => Promise<T>,
    ) {
      const calling = call();
      proxy.stall();
      return settledWithin(calling, FAILS_WITHIN_MS + 2_000);
    }

    const expectUnanswered = (settled: Awaited<ReturnType<typeof settledWithin>>) => {
      expect(settled.outcome).not.toBe("pending");
      const { error } = settled.outcome as { error?: Error };
      expect(error).toMatchObject({ code: "service_unavailable" });
      expect(error?.cause).toBeInstanceOf(UnansweredStatementError);
      expect(settled.ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
      expect(settled.ms).toBeLessThan(FAILS_WITHIN_MS);
    };

    it.skipIf(!available)(
      "a read fails as the store unavailable within the bound, its connection closed; once the network heals the next read is served",
      async () => {
        const { proxy, store, heard, workspace } = await proxiedStore();
        // Two connections open (a read outside a transaction while it holds one): the read that
        // stalls takes one, the other stays idle.
        await store.transaction(() => store.repositories.workspaces.findById(workspace.id));
        expect(store.connections?.()).toEqual({ inUse: 0, idle: 2, waiting: 0 });

        const settled = await stalledDuring(proxy, () =>
          store.repositories.workspaces.findById(workspace.id),
        );
        expectUnanswered(settled);
        expect(heard.unavailable).toHaveBeenCalledWith(expect.any(UnansweredStatementError));
        // Its connection was closed, and the idle one with it (as silent, surely): the pool holds
        // none, and the proxy, reading again, sees each closed.
        await vi.waitFor(() => expect(store.connections?.()).toEqual({ inUse: 0, idle: 0, waiting: 0 }), {
          timeout: 1_000,
        });
        await proxy.closesAll();

        proxy.heal();
        expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
      },
    );

    it.skipIf(!available)(
      "leaves a commit the server is still at (a slow flush, a synchronous standby) past the bound: the write succeeds",
      async () => {
        const heard = monitor();
        const store = await openPostgresStore({
          databaseUrl: database!.url,
          pool: { statementTimeoutMs: STATEMENT_TIMEOUT_MS },
          monitor: heard,
          accessListener: false,
          fieldCountFolding: false,
        });
        cleanups.push(() => store.close());
        // A deferred trigger sleeps at commit, where PostgreSQL no longer applies the time-out.
        const admin = new pg.Client({ connectionString: database!.url });
        admin.on("error", () => {});
        await admin.connect();
        cleanups.push(async () => {
          await admin.query("drop trigger if exists slow_commit on workspaces");
          await admin.query("drop function if exists slow_commit()");
          await admin.end();
        });
        await admin.query(`create function slow_commit() returns trigger language plpgsql as
          $$ begin perform pg_sleep(${(BOUND_MS + 1_500) / 1_000}); return null; end $$`);
        await admin.query(`create constraint trigger slow_commit after insert on workspaces
          deferrable initially deferred for each row execute function slow_commit()`);
        const workspace = aWorkspace();
        const started = performance.now();
        await store.repositories.workspaces.save(workspace);
        expect(performance.now() - started).toBeGreaterThan(BOUND_MS + 1_000);
        expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
        expect(heard.unavailable).not.toHaveBeenCalled();
      },
    );

    it.skipIf(!available)(
      "closing the store during a stall ends within the polite close's grace, listener and idle connections cut",
      async () => {
        const proxy = await stallingProxy(database!.url);
        cleanups.push(() => proxy.close());
        const store = await openPostgresStore({
          databaseUrl: proxy.databaseUrl,
          pool: { statementTimeoutMs: STATEMENT_TIMEOUT_MS, max: 2 },
          fieldCountFolding: false,
        });
        await store.ping();
        proxy.stall();
        const settled = await settledWithin(store.close(), POLITE_CLOSE_MS + 3_000);
        expect(settled.outcome).toEqual({ value: undefined });
        expect(settled.ms).toBeLessThan(POLITE_CLOSE_MS + 1_000);
        await proxy.closesAll();
      },
    );

    it.skipIf(!available)(
      "a transaction and a ping fail the same way, and the store serves again after",
      async () => {
        const { proxy, store, workspace } = await proxiedStore();

        expectUnanswered(
          await stalledDuring(proxy, () =>
            store.transaction((repositories) => repositories.workspaces.findById(workspace.id)),
          ),
        );
        proxy.heal();
        expect(
          await store.transaction((repositories) => repositories.workspaces.findById(workspace.id)),
        ).toEqual(workspace);
        expectUnanswered(await stalledDuring(proxy, () => store.ping()));
        proxy.heal();
        await store.ping();
      },
    );
  },
);

describe("UnansweredStatements", () => {
  it("watches nothing without a statement time-out: pg's own client, no sweep", () => {
    const none = new UnansweredStatements(0);
    expect(none.boundMs).toBe(0);
    expect(none.clientClass()).toBeUndefined();
  });

  it("bounds a statement's silence by the statement time-out and the grace, sweeping at most every second", () => {
    expect(new UnansweredStatements(300)).toMatchObject({ boundMs: 1_300, sweepMs: 325 });
    expect(new UnansweredStatements(15_000)).toMatchObject({ boundMs: 16_000, sweepMs: 1_000 });
  });

  it("classifies its error as PostgreSQL unavailable", () => {
    expect(isPostgresUnavailable(new UnansweredStatementError(1_300))).toBe(true);
  });

  it.skipIf(!available)(
    "cuts a statement gone silent; one answering slowly it leaves, and one the server cancels fails as before",
    async () => {
      const unanswered = new UnansweredStatements(STATEMENT_TIMEOUT_MS);
      const Client = unanswered.clientClass()!;
      const proxy = await stallingProxy(database!.url);
      cleanups.push(() => proxy.close());
      const connected = async (statementTimeoutMs?: number) => {
        const client = new Client({
          connectionString: proxy.databaseUrl,
          statement_timeout: statementTimeoutMs,
        });
        client.on("error", () => {});
        await client.connect();
        // After the proxy closed (a connection it stalls would wait for ever to end politely).
        cleanups.unshift(() => client.end().catch(() => {}));
        return client;
      };
      const slow = await connected();
      const timed = await connected(STATEMENT_TIMEOUT_MS);
      expect(unanswered.size).toBe(2);

      // Rows 10 kB each (more than PostgreSQL buffers before sending), one every 400 ms: longer than
      // the bound in all (no time-out on this connection), never silent for as long.
      const started = performance.now();
      const { rowCount } = await slow.query(
        "select pg_sleep(0.4), repeat('x', 10000) from generate_series(1, 5)",
      );
      expect(rowCount).toBe(5);
      expect(performance.now() - started).toBeGreaterThan(BOUND_MS);
      // Past its time-out, the server cancels a statement and says so: not cut.
      await expect(timed.query("select pg_sleep(5)")).rejects.toMatchObject({ code: "57014" });
      expect(unanswered.size).toBe(2);

      const silent = slow.query("select 1");
      proxy.stall();
      const settled = await settledWithin(silent, FAILS_WITHIN_MS + 2_000);
      expect(settled.outcome).toMatchObject({ error: expect.any(UnansweredStatementError) });
      expect(settled.ms).toBeLessThan(FAILS_WITHIN_MS);
      await vi.waitFor(() => expect(unanswered.size).toBe(1), { timeout: 1_000 });
      unanswered.stop();
      expect(unanswered.size).toBe(0);
    },
  );
});
