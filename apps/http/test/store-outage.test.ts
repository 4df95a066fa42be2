import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqlitePathOf } from "@service-api/adapters-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/http.js";
import { eventually, keepCalling, sleep } from "./support/load.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { seededDatabase } from "./support/seeded-database.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { TEST_STORE } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const UNAVAILABLE = {
  status: 503,
  code: "service_unavailable",
  message:
    "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.",
};

/** The seeded variable kept its value (the refused write wrote nothing), and a write now succeeds. */
async function expectUnwrittenThenWritable(
  server: TestServer,
  world: SeededWorkspace,
  path: string,
  token: string,
) {
  const stored = await server.store.repositories.conversations.findVariable(
    world.conversation.id,
    world.variable.id,
  );
  expect(stored?.value).toBe(world.variable.value);
  expect((await call(server.url, "PUT", path, { token, body: { value: "now", user: "alice" } })).status).toBe(
    200,
  );
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spawn(environment: Record<string, string>): Promise<ServerProcess> {
  const directory = mkdtempSync(join(tmpdir(), "service-api-outage-"));
  const server = await spawnServer(directory, environment);
  cleanups.push(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
    rmSync(directory, { recursive: true, force: true });
  });
  return server;
}

/** A server whose connections to PostgreSQL go through a proxy the test can cut or stall. */
async function spawnThroughProxy(databaseUrl: string, environment: Record<string, string>) {
  const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(databaseUrl).port || 5432) });
  cleanups.push(proxy.close);
  const throughProxy = new URL(databaseUrl);
  throughProxy.host = `127.0.0.1:${proxy.port}`;
  return { proxy, server: await spawn({ ...environment, DATABASE_URL: throughProxy.toString() }) };
}

/** Every response was a 200 or the API's 503 with Retry-After; none was a 500, none was lost. */
function expectOnlySuccessesAndUnavailables(responses: ApiResponse[], failures: unknown[]) {
  expect(failures).toEqual([]);
  const statuses = new Set(responses.map((response) => response.status));
  expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
  for (const response of responses.filter((response) => response.status === 503)) {
    expect(response.body).toEqual(UNAVAILABLE);
    expect(response.headers.get("retry-after")).toBe("1");
  }
}

const messages = (server: { lines: Record<string, unknown>[] }, msg: string) =>
  server.lines.filter((line) => line.msg === msg);

describe.runIf(TEST_STORE === "postgres")("PostgreSQL going away under load", () => {
  it("keeps the process alive when its connections are terminated mid-query, answers 503, and recovers", async () => {
    const database = await seededDatabase(cleanups);
    const { world } = database;
    const server = await spawn({ DATABASE_URL: database.databaseUrl, DATABASE_POOL_MAX: "4" });
    const path = `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`;
    const load = keepCalling(() => call(server.url, "GET", path, { token: world.datasetKey }), 8);

    const admin = new pg.Client({ connectionString: database.databaseUrl });
    await admin.connect();
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      await sleep(150);
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = 'service-api' and pid <> pg_backend_pid()`,
      );
      terminated += rowCount ?? 0;
    }
    await admin.end();
    await sleep(300);
    await load.stop();

    expect(terminated).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expectOnlySuccessesAndUnavailables(load.responses, load.failures);
    // A query that was running when its connection was terminated: the case that ended the process.
    expect(load.responses.some((response) => response.status === 503)).toBe(true);
    expect((await call(server.url, "GET", path, { token: world.datasetKey })).status).toBe(200);
    expect(messages(server, "request failed")).toEqual([]);
  });

  it("answers 503 while PostgreSQL cannot be reached, logs the outage once, and recovers by itself", async () => {
    const database = await seededDatabase(cleanups);
    const { world } = database;
    const { proxy, server } = await spawnThroughProxy(database.databaseUrl, {
      DATABASE_POOL_MAX: "4",
      DATABASE_CONNECT_TIMEOUT_MS: "500",
    });
    const path = `/v1/datasets/${world.dataset.id}/metadata`;
    const load = keepCalling(() => call(server.url, "GET", path, { token: world.datasetKey }), 6);
    await sleep(300);

    await proxy.cut();
    await eventually(() => messages(server, "store unavailable").length > 0);
    await sleep(500);
    const ready = await call(server.url, "GET", "/readyz");
    expect(ready.status).toBe(503);
    expect((await call(server.url, "GET", "/healthz")).status).toBe(200);

    await proxy.restore();
    await eventually(async () => (await call(server.url, "GET", "/readyz")).status === 200);
    // The outage ends at the first success a second clear of the last failure.
    await eventually(() => messages(server, "store available again").length > 0);
    await load.stop();

    expect(server.child.exitCode).toBeNull();
    expectOnlySuccessesAndUnavailables(load.responses, load.failures);
    const refused = load.responses.filter((response) => response.status === 503).length;
    expect(refused).toBeGreaterThan(5);
    expect(messages(server, "store unavailable")).toHaveLength(1);
    const [recovered] = messages(server, "store available again");
    expect(messages(server, "store available again")).toHaveLength(1);
    expect(recovered).toMatchObject({ failedCalls: expect.any(Number), outageMs: expect.any(Number) });
    expect(Number(recovered?.failedCalls)).toBeGreaterThanOrEqual(refused);
    expect(messages(server, "request failed")).toEqual([]);
    expect(JSON.stringify(server.lines)).not.toContain(world.datasetKey);
    // A spawned server, an outage and a recovery: on a busy machine more than the default 20 s.
  }, 60_000);
});

describe.runIf(TEST_STORE === "postgres")("stopping while PostgreSQL does not answer", () => {
  it("exits within SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS, though calls still wait for the database", async () => {
    const database = await seededDatabase(cleanups);
    const { world } = database;
    const { proxy, server } = await spawnThroughProxy(database.databaseUrl, {
      DATABASE_POOL_MAX: "2",
      DATABASE_CONNECT_TIMEOUT_MS: "20000",
      DATABASE_STATEMENT_TIMEOUT_MS: "20000",
      SHUTDOWN_DRAIN_MS: "300",
      SHUTDOWN_TIMEOUT_MS: "700",
    });
    const path = `/v1/datasets/${world.dataset.id}/metadata`;
    expect((await call(server.url, "GET", path, { token: world.datasetKey })).status).toBe(200);

    // A network partition: connections stay open, and nothing comes back.
    proxy.stall();
    const waiting = Array.from({ length: 4 }, () =>
      call(server.url, "GET", path, { token: world.datasetKey }).catch((error: unknown) => error),
    );
    await sleep(300);
    const stopping = performance.now();
    server.child.kill("SIGTERM");
    const { code } = await server.exited;
    const tookMs = performance.now() - stopping;
    await Promise.all(waiting);

    expect(code).toBe(0);
    // Drain and time-out are 1 s here; the database's time-outs (20 s) no longer decide.
    expect(tookMs).toBeLessThan(5_000);
    expect(messages(server, "stopped before the store closed")).toHaveLength(1);
  });
});

describe.runIf(TEST_STORE === "postgres")("PostgreSQL out of time", () => {
  let server: TestServer;
  let blocker: pg.Client;
  afterEach(async () => {
    await blocker?.end().catch(() => {});
    await server?.stop();
  });

  /** Holds a lock on the variables from outside, so the server's update waits on it. */
  async function lockVariables(databaseUrl: string) {
    blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("lock table conversation_variables in access exclusive mode");
    return async () => {
      await blocker.query("rollback");
    };
  }

  /** The seeded workspace's variable, its rows locked from outside until `release`, and how to write it. */
  async function lockedVariable(server: TestServer) {
    const world = await seedWorkspace(server.store.repositories);
    const release = await lockVariables(server.databaseUrl);
    const path = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    return { world, release, path, token: world.apps["advanced-chat"].key };
  }

  it("answers 503 when no connection frees up within DATABASE_CONNECT_TIMEOUT_MS, and writes nothing", async () => {
    server = await startTestServer({ DATABASE_POOL_MAX: "1", DATABASE_CONNECT_TIMEOUT_MS: "300" });
    const { world, release, path, token } = await lockedVariable(server);
    const holding = call(server.url, "PUT", path, { token, body: { value: "first", user: "alice" } });
    await sleep(200);
    const refused = await call(server.url, "PUT", path, { token, body: { value: "second", user: "alice" } });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UNAVAILABLE);
    await release();
    expect((await holding).status).toBe(200);
    const stored = await server.store.repositories.conversations.findVariable(
      world.conversation.id,
      world.variable.id,
    );
    expect(stored?.value).toBe("first");
  });

  it("answers 503 when a write waits past DATABASE_LOCK_TIMEOUT_MS for a lock held elsewhere: no outage", async () => {
    server = await startTestServer({ DATABASE_LOCK_TIMEOUT_MS: "300" });
    const { world, release, path, token } = await lockedVariable(server);
    const refused = await call(server.url, "PUT", path, { token, body: { value: "late", user: "alice" } });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UNAVAILABLE);
    expect(refused.headers.get("retry-after")).toBe("1");
    // The store serves all the while: reads and probes are answered, and no outage is logged.
    expect((await call(server.url, "GET", "/readyz")).status).toBe(200);
    await release();
    expect(server.logs.filter((line) => line.msg === "store lock wait exceeded")).toHaveLength(1);
    expect(server.logs.filter((line) => line.msg === "store unavailable")).toHaveLength(0);
    await expectUnwrittenThenWritable(server, world, path, token);
  });

  it("answers 503 when a statement runs past DATABASE_STATEMENT_TIMEOUT_MS, and writes nothing", async () => {
    // No lock time-out: the held lock keeps the statement running until the statement time-out.
    server = await startTestServer({ DATABASE_STATEMENT_TIMEOUT_MS: "300", DATABASE_LOCK_TIMEOUT_MS: "0" });
    const { world, release, path, token } = await lockedVariable(server);
    const refused = await call(server.url, "PUT", path, { token, body: { value: "late", user: "alice" } });
    await release();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    // Cut by the statement time-out: an outage, not a lock.
    expect(server.logs.filter((line) => line.msg === "store unavailable")).toHaveLength(1);
    expect(server.logs.filter((line) => line.msg === "store lock wait exceeded")).toHaveLength(0);
    await expectUnwrittenThenWritable(server, world, path, token);
  });

  it("ends a lock wait as busy before a short DATABASE_STATEMENT_TIMEOUT_MS given alone: no outage", async () => {
    server = await startTestServer({ DATABASE_STATEMENT_TIMEOUT_MS: "600" });
    const { world, release, path, token } = await lockedVariable(server);
    const refused = await call(server.url, "PUT", path, { token, body: { value: "late", user: "alice" } });
    await release();
    expect(refused.status).toBe(503);
    expect(server.logs.filter((line) => line.msg === "store lock wait exceeded")).toHaveLength(1);
    expect(server.logs.filter((line) => line.msg === "store unavailable")).toHaveLength(0);
    await expectUnwrittenThenWritable(server, world, path, token);
  });
});

describe.runIf(TEST_STORE === "postgres")("a field rename whose commit the flush may not cover", () => {
  let server: TestServer;
  const clients: pg.Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => {});
    await server?.stop();
  });
  const connected = async (databaseUrl: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    clients.push(client);
    return client;
  };

  it("answers 503 when a connection was lost between the rename's commit and its flush, then renames again", async () => {
    server = await startTestServer();
    const world = await seedWorkspace(server.store.repositories);
    const { dataset, fields, datasetKey: token } = world;
    const path = `/v1/datasets/${dataset.id}/metadata/${fields.author.id}`;
    const observer = await connected(server.databaseUrl);
    const nameNow = async () =>
      (await observer.query("select name from metadata_fields where id = $1", [fields.author.id])).rows[0]
        ?.name as string;
    // Holds the lock the commit flush's `setval` needs: the rename commits, its answer waits.
    const blocker = await connected(server.databaseUrl);
    await blocker.query("begin");
    await blocker.query("alter sequence commit_flush_marks restart");
    const renaming = call(server.url, "PATCH", path, { token, body: { name: "unvouched" } });
    await eventually(async () => (await nameNow()) === "unvouched");
    // The pools' idle connections end, as a restart or a failover ends them all.
    const ended = await observer.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'service-api' and datname = current_database() and state = 'idle'`,
    );
    expect(ended.rowCount).toBeGreaterThan(0);
    await blocker.query("rollback");
    const refused = await renaming;
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UNAVAILABLE);
    expect(refused.headers.get("retry-after")).toBe("1");
    // The server serves on, and answers the client's retry.
    const renamed = await call(server.url, "PATCH", path, { token, body: { name: "unvouched" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: fields.author.id, name: "unvouched" });
  });
});

describe.runIf(TEST_STORE === "sqlite")("SQLite locked by another process", () => {
  let server: TestServer;
  afterEach(() => server?.stop());

  it("serves reads and probes while a write waits for the lock, then makes the write", async () => {
    server = await startTestServer({ SQLITE_BUSY_TIMEOUT_MS: "10000" });
    const world = await seedWorkspace(server.store.repositories);
    const other = new Database(sqlitePathOf(server.databaseUrl));
    other.exec("begin immediate");
    const path = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    const token = world.apps["advanced-chat"].key;
    let waiting: Promise<ApiResponse> | undefined;
    try {
      waiting = call(server.url, "PUT", path, { token, body: { value: "after the lock", user: "alice" } });
      let settled = false;
      void waiting.finally(() => {
        settled = true;
      });
      await sleep(100);
      expect((await call(server.url, "GET", "/readyz")).status).toBe(200);
      const read = await call(server.url, "GET", `/v1/datasets/${world.dataset.id}/metadata`, {
        token: world.datasetKey,
      });
      expect(read.status).toBe(200);
      // SQLite's own busy wait would have held this process until the write gave up: a 503.
      expect(settled).toBe(false);
    } finally {
      if (other.inTransaction) other.exec("commit");
      other.close();
    }
    const written = await waiting;
    expect(written.status).toBe(200);
    const stored = await server.store.repositories.conversations.findVariable(
      world.conversation.id,
      world.variable.id,
    );
    expect(stored?.value).toBe("after the lock");
    expect(server.logs.filter((line) => line.msg === "store unavailable")).toHaveLength(0);
  });

  it("answers a write 503 once the lock outlasts SQLITE_BUSY_TIMEOUT_MS, keeps reading, and writes after, no outage", async () => {
    server = await startTestServer({ SQLITE_BUSY_TIMEOUT_MS: "200" });
    const world = await seedWorkspace(server.store.repositories);
    const path = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    const token = world.apps["advanced-chat"].key;
    // Each key's use is recorded now, so that no record (a write beside the request) is due below.
    expect((await call(server.url, "GET", "/v1/info", { token })).status).toBe(200);
    const metadata = `/v1/datasets/${world.dataset.id}/metadata`;
    expect((await call(server.url, "GET", metadata, { token: world.datasetKey })).status).toBe(200);
    const other = new Database(sqlitePathOf(server.databaseUrl));
    other.exec("begin immediate");
    try {
      const refused = await call(server.url, "PUT", path, {
        token,
        body: { value: "blocked", user: "alice" },
      });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual(UNAVAILABLE);
      expect(refused.headers.get("retry-after")).toBe("1");
      const read = await call(server.url, "GET", `/v1/datasets/${world.dataset.id}/metadata`, {
        token: world.datasetKey,
      });
      expect(read.status).toBe(200);
    } finally {
      other.exec("rollback");
      other.close();
    }
    await expectUnwrittenThenWritable(server, world, path, token);
    // A lock held elsewhere is no outage: the store served reads all along.
    expect(server.logs.filter((line) => line.msg === "store lock wait exceeded")).toHaveLength(1);
    expect(server.logs.filter((line) => line.msg === "store unavailable")).toHaveLength(0);
    expect((await call(server.url, "GET", "/readyz")).status).toBe(200);
  });
});
