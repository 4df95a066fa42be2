import { once } from "node:events";
import type { AddressInfo, Socket } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceApiRouter, loadConfig, startServer } from "../src/index.js";
import { capturedLogger } from "./support/captured-logger.js";
import { sleep } from "./support/load.js";
import { postgresWireCounter } from "./support/postgres-wire.js";
import { seededDatabase } from "./support/seeded-database.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { TEST_STORE } from "./support/test-database.js";

// PostgreSQL that accepts the connection, authenticates it, then answers nothing more (a partition,
// a stalled proxy): opening the store must give up within its open time-out, as when it refuses.

const OPEN_TIMEOUT_MS = 1_000;
/** The open time-out plus slack for a slow machine: far less than "never". */
const ANSWERED_WITHIN_MS = OPEN_TIMEOUT_MS + 2_000;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A proxy in front of the database that passes the connection and its authentication, then stalls
 * at the first statement a client sends (once: after `restore()` it passes everything). `stalled`
 * is the proxy's side of the connection it stalled.
 */
async function stallingAfterAuthentication(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let stall = () => {};
  let stalledOnce = false;
  let onStalled: (client: Socket) => void = () => {};
  const stalled = new Promise<Socket>((resolve) => {
    onStalled = resolve;
  });
  const proxy = await startTcpProxy(
    { host: target.hostname, port: Number(target.port || 5432) },
    (client) => {
      const wire = postgresWireCounter();
      wire.read(client);
      client.on("data", () => {
        if (stalledOnce || wire.take().parsed.length === 0) return;
        stalledOnce = true;
        stall();
        onStalled(client);
      });
    },
  );
  stall = () => proxy.stall();
  const throughProxy = new URL(databaseUrl);
  throughProxy.port = String(proxy.port);
  return { proxy, databaseUrl: throughProxy.toString(), stalled };
}

/** A host Express app serving `router` at /kb on an ephemeral port; its base URL. */
async function host(router: express.Router): Promise<string> {
  const server = express().use("/kb", router).listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A GET that gives up after 10 s (a hang fails the test, rather than timing it out). */
async function get(url: string, key: string) {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

/** Whether `socket` closes within `ms` once read again: the other side closed its end. */
async function closesWithin(socket: Socket, ms: number): Promise<boolean> {
  socket.resume();
  const closed = once(socket, "close").then(() => true);
  return Promise.race([closed, sleep(ms).then(() => false)]);
}

describe.runIf(TEST_STORE === "postgres")("opening while PostgreSQL goes silent after authenticating", () => {
  it("the embedded router answers 503 with Retry-After within the open time-out, then serves once PostgreSQL answers", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const silent = await stallingAfterAuthentication(databaseUrl);
    const { logger, lines } = capturedLogger();
    const router = createServiceApiRouter({
      databaseUrl: silent.databaseUrl,
      pool: { openTimeoutMs: OPEN_TIMEOUT_MS },
      logger,
    });
    cleanups.push(() => router.close());
    // Closed first: whatever still waits on it then fails, and the router can close.
    cleanups.push(() => silent.proxy.close());
    const base = await host(router);
    const key = world.apps["advanced-chat"].key;

    const asked = performance.now();
    expect(await get(`${base}/kb/site`, key)).toEqual({
      status: 503,
      retryAfter: "1",
      body: {
        status: 503,
        code: "service_unavailable",
        message:
          "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.",
      },
    });
    expect(performance.now() - asked).toBeLessThan(ANSWERED_WITHIN_MS);
    await expect(router.ready).rejects.toThrow(`did not open within ${OPEN_TIMEOUT_MS} ms`);
    // The attempt's connection was closed, not left waiting for an answer.
    expect(await closesWithin(await silent.stalled, 2_000)).toBe(true);

    await silent.proxy.restore();
    await sleep(1_100);
    expect(await get(`${base}/kb/site`, key)).toMatchObject({
      status: 200,
      body: { title: "advanced-chat site" },
    });
    expect(lines.map((line) => line.msg)).toEqual(["store unavailable", "store available again"]);
  });

  it("the standalone server does not start, as when PostgreSQL refuses: startServer rejects within the open time-out", async () => {
    const { databaseUrl } = await seededDatabase(cleanups);
    const silent = await stallingAfterAuthentication(databaseUrl);
    cleanups.push(() => silent.proxy.close());
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DEMO: "off",
      DATABASE_URL: silent.databaseUrl,
      DATABASE_OPEN_TIMEOUT_MS: String(OPEN_TIMEOUT_MS),
    });

    const starting = performance.now();
    const started = startServer(config, capturedLogger().logger);
    const outcome = await Promise.race([
      started.then(
        (running) => {
          cleanups.push(() => running.close());
          return "listening";
        },
        (error: Error) => error,
      ),
      sleep(10_000).then(() => "still starting"),
    ]);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toContain(`did not open within ${OPEN_TIMEOUT_MS} ms`);
    expect(performance.now() - starting).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(await closesWithin(await silent.stalled, 2_000)).toBe(true);
  });
});
