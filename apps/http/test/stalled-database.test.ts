import { once } from "node:events";
import type { AddressInfo, Socket } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceApiRouter, loadConfig, startServer } from "../src/index.js";
import { capturedLogger } from "./support/captured-logger.js";
import { seededDatabase } from "./support/seeded-database.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { TEST_STORE } from "./support/test-database.js";

// PostgreSQL that stops answering once the store is open (a partition, a stalled proxy: the TCP
// connections stay up, nothing comes back): a statement in flight never gets its answer. Past the
// statement time-out and a second's grace its connection is closed and the call answers 503, as when
// PostgreSQL refuses; once the network heals, new connections serve.

const STATEMENT_TIMEOUT_MS = 300;
/** How long a statement may go unanswered: the statement time-out and a second's grace. */
const BOUND_MS = STATEMENT_TIMEOUT_MS + 1_000;
/**
 * The bound, two sweeps (a quarter of it each), the question to a server that does not answer (2 s)
 * and slack for a slow machine: far less than "never".
 */
const ANSWERED_WITHIN_MS = BOUND_MS * 1.5 + 2_000 + 1_000;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const UNAVAILABLE = {
  status: 503,
  code: "service_unavailable",
  message:
    "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.",
};

/**
 * A proxy in front of the database that, once armed, stalls at the next statement a pool connection
 * sends (the access listener's connection, named by its startup message, does not count): that
 * statement is in flight when the stall begins. `stalled` resolves then. `heal` forwards new
 * connections again; the stalled ones stay stalled, as after a partition whose peer forgot them.
 */
async function stallingProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let armed = false;
  let onStalled: () => void = () => {};
  const proxy = await startTcpProxy(
    { host: target.hostname, port: Number(target.port || 5432) },
    (client: Socket) => {
      let listener: boolean | undefined;
      client.on("data", (chunk: Buffer) => {
        if (listener === undefined) {
          listener = chunk.includes("service-api-access-listener");
          return;
        }
        if (listener || !armed) return;
        armed = false;
        proxy.stall();
        onStalled();
      });
    },
  );
  const throughProxy = new URL(databaseUrl);
  throughProxy.port = String(proxy.port);
  return {
    databaseUrl: throughProxy.toString(),
    /** Stalls at the next statement; resolves once it has. */
    stallAtNextStatement: () => {
      armed = true;
      return new Promise<void>((resolve) => {
        onStalled = resolve;
      });
    },
    heal: () => proxy.restore(),
    close: () => proxy.close(),
  };
}

/** A GET, timed, that gives up after 10 s (a hang fails the test, rather than timing it out). */
async function get(url: string, key?: string) {
  const started = performance.now();
  const response = await fetch(url, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
    ms: performance.now() - started,
  };
}

describe.runIf(TEST_STORE === "postgres")("PostgreSQL going silent after the store opened", () => {
  it("the standalone server answers a request in flight and /readyz 503 with Retry-After within the bound, then serves once the network heals", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const silent = await stallingProxy(databaseUrl);
    const { logger, lines } = capturedLogger();
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DEMO: "off",
      SHUTDOWN_DRAIN_MS: "0",
      DATABASE_URL: silent.databaseUrl,
      DATABASE_POOL_MAX: "2",
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    const running = await startServer(config, logger);
    cleanups.push(async () => {
      const closing = running.close();
      running.server.closeIdleConnections();
      await closing;
    });
    // Closed first: whatever still waits on it then fails, and the server can close.
    cleanups.push(silent.close);
    const path = `${running.url}/v1/datasets/${world.dataset.id}/metadata`;
    // Both connections of the pool open, so that the readiness probe finds one idle (and stalled).
    const warm = await Promise.all(Array.from({ length: 6 }, () => get(path, world.datasetKey)));
    expect(warm.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const stalled = silent.stallAtNextStatement();
    const inFlight = get(path, world.datasetKey);
    // Heard at once, so that a hang (the readiness probe timing out first) is not also unhandled.
    inFlight.catch(() => {});
    await stalled;
    const readiness = await get(`${running.url}/readyz`);
    const answered = await inFlight;

    expect(answered).toMatchObject({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(answered.ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
    expect(answered.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(readiness).toMatchObject({
      status: 503,
      retryAfter: "1",
      body: { status: 503, code: "service_unavailable", message: "The database does not answer." },
    });
    expect(readiness.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    expect((await get(`${running.url}/healthz`)).status).toBe(200);

    await silent.heal();
    expect((await get(path, world.datasetKey)).status).toBe(200);
    expect((await get(`${running.url}/readyz`)).status).toBe(200);
    expect(lines.filter((line) => line.msg === "store unavailable")).toMatchObject([
      { error: { name: "UnansweredStatementError" } },
    ]);
  });

  it("the embedded router answers a request in flight 503 with Retry-After within the bound, then serves once the network heals", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const silent = await stallingProxy(databaseUrl);
    const router = createServiceApiRouter({
      databaseUrl: silent.databaseUrl,
      pool: { statementTimeoutMs: STATEMENT_TIMEOUT_MS, max: 2 },
      logger: capturedLogger().logger,
    });
    cleanups.push(() => router.close());
    cleanups.push(silent.close);
    await router.ready;
    const server = express().use("/kb", router).listen(0, "127.0.0.1");
    await once(server, "listening");
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kb/site`;
    const key = world.apps["advanced-chat"].key;
    expect((await get(site, key)).status).toBe(200);

    const stalled = silent.stallAtNextStatement();
    const inFlight = get(site, key);
    await stalled;
    const answered = await inFlight;
    expect(answered).toMatchObject({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(answered.ms).toBeLessThan(ANSWERED_WITHIN_MS);

    await silent.heal();
    expect(await get(site, key)).toMatchObject({ status: 200, body: { title: "advanced-chat site" } });
  });
});
