import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqlitePathOf } from "@service-api/adapters-sqlite";
import { openStore } from "@service-api/stores";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually, sleep } from "./support/load.js";
import { requireRedisForTests, TEST_REDIS_URL } from "./support/redis.js";
import { seedWorkspace } from "./support/seed.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { createTestDatabaseUrl, TEST_STORE } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const redis = await requireRedisForTests();

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWith(environment: Record<string, string>) {
  const server = await startTestServer(environment);
  cleanups.push(() => server.stop());
  return { server, world: await seedWorkspace(server.store.repositories) };
}

const site = (server: TestServer, token: string) => call(server.url, "GET", "/v1/site", { token });
const TOO_MANY_FOR_KEY = {
  status: 429,
  code: "too_many_requests",
  message: "This API key has made too many requests. Try again later.",
};

describe("the limit per key", () => {
  it("answers 429 with Retry-After and the RateLimit headers past RATE_LIMIT_PER_KEY, for that key only", async () => {
    const { server, world } = await serverWith({ RATE_LIMIT_PER_KEY: "3", RATE_LIMIT_WINDOW_MS: "60000" });
    const key = world.apps.chat.key;
    for (let request = 1; request <= 3; request++) {
      const response = await site(server, key);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toMatch(/^"per-key"; q=3; w=60; pk=:[\w+/=]+:$/);
      expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"per-key"; r=${3 - request}; t=\\d+$`));
    }
    const refused = await site(server, key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY_FOR_KEY);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(50);
    expect((await site(server, world.apps.workflow.key)).status).toBe(200);
    const knowledge = await call(server.url, "GET", `/v1/datasets/${world.dataset.id}/metadata`, {
      token: world.datasetKey,
    });
    expect(knowledge.status).toBe(200);
  });

  it("counts again once the window has ended", async () => {
    const { server, world } = await serverWith({ RATE_LIMIT_PER_KEY: "1", RATE_LIMIT_WINDOW_MS: "500" });
    expect((await site(server, world.apps.chat.key)).status).toBe(200);
    expect((await site(server, world.apps.chat.key)).status).toBe(429);
    await sleep(600);
    expect((await site(server, world.apps.chat.key)).status).toBe(200);
  });

  it.runIf(TEST_STORE === "sqlite")(
    "lets requests through while its store fails, saying so once, and limits again after",
    async () => {
      const { server, world } = await serverWith({
        RATE_LIMIT_PER_KEY: "2",
        SQLITE_BUSY_TIMEOUT_MS: "50",
      });
      const key = world.apps.chat.key;
      expect((await site(server, key)).status).toBe(200);
      const other = new Database(sqlitePathOf(server.databaseUrl));
      other.exec("begin immediate");
      try {
        for (let request = 0; request < 5; request++) expect((await site(server, key)).status).toBe(200);
      } finally {
        other.exec("rollback");
        other.close();
      }
      expect((await site(server, key)).status).toBe(200);
      expect((await site(server, key)).status).toBe(429);
      const messages = server.logs.map((line) => line.msg);
      expect(
        messages.filter((msg) => msg === "rate limit store failing: requests pass without a limit"),
      ).toHaveLength(1);
      expect(messages.filter((msg) => msg === "rate limit store answers again: limits apply")).toHaveLength(
        1,
      );
    },
  );

  it.runIf(redis)(
    "counts again once Redis answers after a stall that left its connection hanging",
    async () => {
      const { hostname, port } = new URL(TEST_REDIS_URL);
      const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
      cleanups.push(proxy.close);
      const { server, world } = await serverWith({
        RATE_LIMIT_PER_KEY: "2",
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      });
      const key = world.apps.chat.key;
      expect((await site(server, key)).status).toBe(200);
      expect((await site(server, key)).status).toBe(200);
      expect((await site(server, key)).status).toBe(429);

      // Redis keeps the connection and answers nothing: requests pass, each after the store's time-out.
      proxy.stall();
      expect((await site(server, key)).status).toBe(200);
      expect((await site(server, key)).status).toBe(200);

      // Redis answers again, but not on the stalled connection: the client must give it up.
      await proxy.restore();
      await eventually(async () => (await site(server, key)).status === 429, 10_000);
      expect(server.logs.map((line) => line.msg)).toContain("rate limit store answers again: limits apply");
    },
  );

  it("lets requests through when Redis cannot be reached, saying so once", async () => {
    const { server, world } = await serverWith({ RATE_LIMIT_PER_KEY: "1", REDIS_URL: "redis://127.0.0.1:9" });
    for (let request = 0; request < 4; request++)
      expect((await site(server, world.apps.chat.key)).status).toBe(200);
    const failing = server.logs.filter(
      (line) => line.msg === "rate limit store failing: requests pass without a limit",
    );
    expect(failing).toHaveLength(1);
  });
});

describe("the limit on failed authentication per address", () => {
  it("answers 429 past AUTH_FAILURE_LIMIT failures, even to a good key, until the window ends", async () => {
    const { server, world } = await serverWith({ AUTH_FAILURE_LIMIT: "3", AUTH_FAILURE_WINDOW_MS: "1000" });
    for (let request = 1; request <= 3; request++) {
      const response = await site(server, `app-guess${request}`);
      expect(response.status).toBe(401);
      expect(response.headers.get("ratelimit-policy")).toMatch(/^"auth-failures"; q=3; w=1; pk=/);
    }
    const refused = await site(server, "app-guess4");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 429,
      code: "too_many_requests",
      message: "Too many requests with a missing or invalid API key from this address. Try again later.",
    });
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await site(server, world.apps.chat.key)).status).toBe(429);
    await sleep(1_100);
    expect((await site(server, world.apps.chat.key)).status).toBe(200);
    expect((await site(server, "app-guess5")).status).toBe(401);
  });

  it("counts only failures: keys that authenticate cost nothing", async () => {
    const { server, world } = await serverWith({ AUTH_FAILURE_LIMIT: "2" });
    for (let request = 0; request < 10; request++)
      expect((await site(server, world.apps.chat.key)).status).toBe(200);
    expect((await site(server, "app-wrong")).status).toBe(401);
    expect((await site(server, "app-wrong")).status).toBe(401);
    expect((await site(server, "app-wrong")).status).toBe(429);
  });

  it("is on by default, generously, and AUTH_FAILURE_LIMIT=0 turns it off", async () => {
    const { server: limited } = await serverWith({});
    const statuses = [];
    for (let request = 0; request < 101; request++) statuses.push((await site(limited, "app-x")).status);
    expect(statuses.slice(0, 100).every((status) => status === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
    const { server: open } = await serverWith({ AUTH_FAILURE_LIMIT: "0" });
    for (let request = 0; request < 110; request++) expect((await site(open, "app-x")).status).toBe(401);
  });
});

async function twoInstances(environment: Record<string, string>) {
  const database = await createTestDatabaseUrl();
  cleanups.push(database.drop);
  const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
  const world = await seedWorkspace(store.repositories);
  await store.close();
  const directory = mkdtempSync(join(tmpdir(), "service-api-limits-"));
  const servers: ServerProcess[] = await Promise.all(
    [0, 1].map(() => spawnServer(directory, { DATABASE_URL: database.databaseUrl, ...environment })),
  );
  cleanups.push(async () => {
    for (const server of servers) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    rmSync(directory, { recursive: true, force: true });
  });
  return { servers, world };
}

describe("limits shared by several instances", () => {
  it.runIf(TEST_STORE === "postgres")(
    "count per key and per address in the PostgreSQL database they share",
    async () => {
      const { servers, world } = await twoInstances({ RATE_LIMIT_PER_KEY: "6", AUTH_FAILURE_LIMIT: "4" });
      const statuses = [];
      for (let request = 0; request < 8; request++) {
        const server = servers[request % 2]!;
        statuses.push((await call(server.url, "GET", "/v1/site", { token: world.apps.chat.key })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      const failures = [];
      for (let request = 0; request < 6; request++) {
        const server = servers[request % 2]!;
        failures.push((await call(server.url, "GET", "/v1/site", { token: "app-guess" })).status);
      }
      expect(failures).toEqual([401, 401, 401, 401, 429, 429]);
    },
  );

  it.runIf(redis && TEST_STORE === "sqlite")("count per key in Redis when REDIS_URL is set", async () => {
    const { servers, world } = await twoInstances({ RATE_LIMIT_PER_KEY: "4", REDIS_URL: TEST_REDIS_URL });
    const statuses = [];
    for (let request = 0; request < 6; request++) {
      const server = servers[request % 2]!;
      statuses.push((await call(server.url, "GET", "/v1/site", { token: world.apps.chat.key })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
