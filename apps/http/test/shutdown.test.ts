import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@service-api/stores";
import { afterEach, describe, expect, it } from "vitest";
import { sleep } from "./support/load.js";
import { RawConnection } from "./support/raw-http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE } from "./support/test-database.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function seededServer(environment: Record<string, string>, options?: { ownProcessGroup: boolean }) {
  const database = await createTestDatabaseUrl();
  cleanups.push(database.drop);
  const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
  const world = await seedWorkspace(store.repositories);
  await store.close();
  const directory = mkdtempSync(join(tmpdir(), "service-api-shutdown-"));
  const server = await spawnServer(
    directory,
    { DATABASE_URL: database.databaseUrl, ...environment },
    options,
  );
  cleanups.push(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
    rmSync(directory, { recursive: true, force: true });
  });
  return { server, world };
}

/** One request on a connection of its own: its status, or the error that lost it. */
function onNewConnection(url: string, path: string, token: string): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request(`${url}${path}`, {
      agent: false,
      headers: { authorization: `Bearer ${token}` },
    });
    outgoing.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    outgoing.end();
  });
}

const documentPath = (world: SeededWorkspace) =>
  `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`;

/** Fires `count` requests, each on a new connection, spread over `overMs`. */
async function fire(url: string, world: SeededWorkspace, count: number, overMs: number) {
  const results: Promise<number | string>[] = [];
  for (let index = 0; index < count; index++) {
    results.push(onNewConnection(url, documentPath(world), world.datasetKey));
    if (index % 10 === 9) await sleep(overMs / (count / 10));
  }
  return results;
}

describe("shutting down", () => {
  it("drains on SIGTERM and stops without losing a request or resetting a connection", async () => {
    const { server, world } = await seededServer({ SHUTDOWN_DRAIN_MS: "1500", SHUTDOWN_TIMEOUT_MS: "8000" });
    const keptAlive = new RawConnection(server.url);
    expect((await keptAlive.request("GET", "/healthz")).status).toBe(200);
    const idleThroughout = new RawConnection(server.url);
    expect((await idleThroughout.request("GET", "/healthz")).status).toBe(200);

    const before = await fire(server.url, world, 150, 300);
    server.child.kill("SIGTERM");
    await server.waitForLine((line) => line.msg === "shutting down");
    const during = await fire(server.url, world, 150, 500);

    const ready = new RawConnection(server.url);
    const readiness = await ready.request("GET", "/readyz");
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toMatchObject({ code: "service_unavailable" });
    const kept = await keptAlive.request("GET", documentPath(world), {
      Authorization: `Bearer ${world.datasetKey}`,
    });
    expect(kept.status).toBe(200);
    expect(kept.headers.connection).toBe("close");
    expect(await keptAlive.closed).toEqual({ reset: false });

    const statuses = await Promise.all([...before, ...during]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // After the drain: no new connection is accepted, but one already open is still answered.
    await sleep(1_500);
    expect(await onNewConnection(server.url, "/healthz", "")).toBe("ECONNREFUSED");
    const late = await idleThroughout.request("GET", "/healthz");
    expect(late.status).toBe(200);
    expect(late.headers.connection).toBe("close");
    expect(await idleThroughout.closed).toEqual({ reset: false });

    expect((await server.exited).code).toBe(0);
    const messages = server.lines.map((line) => line.msg);
    expect(messages.indexOf("stopped")).toBeGreaterThan(messages.indexOf("shutting down"));
  });

  it("closes the connection of a request already under way when the drain starts", async () => {
    const { server, world } = await seededServer({ SHUTDOWN_DRAIN_MS: "1500" });
    const connection = new RawConnection(server.url);
    expect((await connection.request("GET", "/healthz")).status).toBe(200);
    const body = JSON.stringify({ value: "answered during the drain", user: "alice" });
    // Its headers now, its body after the signal: the handler waits for it across the drain's start.
    connection.write(
      [
        `PUT /v1/conversations/${world.conversation.id}/variables/${world.variable.id} HTTP/1.1`,
        "Host: 127.0.0.1",
        `Authorization: Bearer ${world.apps["advanced-chat"].key}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "",
        body.slice(0, 10),
      ].join("\r\n"),
    );
    await sleep(300);
    server.child.kill("SIGTERM");
    await server.waitForLine((line) => line.msg === "shutting down");
    connection.write(body.slice(10));
    const response = await connection.next();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ value: "answered during the drain" });
    expect(response.headers.connection).toBe("close");
    expect(await connection.closed).toEqual({ reset: false });
  });

  it("ends the drain at a second signal", async () => {
    const { server } = await seededServer({ SHUTDOWN_DRAIN_MS: "60000" });
    server.child.kill("SIGTERM");
    await server.waitForLine((line) => line.msg === "shutting down");
    // Past the moment in which a second signal is the first one again (a service manager's and a
    // script runner's at once).
    await sleep(700);
    const signalled = Date.now();
    server.child.kill("SIGINT");
    expect((await server.exited).code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(server.lines.map((line) => line.msg)).toContain("ending the drain");
  });

  it("takes two signals at once as one request: a service manager's and one passed on by npm start", async () => {
    const { server } = await seededServer({ SHUTDOWN_DRAIN_MS: "1500" });
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    // Apart, so that the system does not merge them into one pending signal.
    await sleep(50);
    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_400);
    expect(server.lines.map((line) => line.msg)).not.toContain("ending the drain");
  });

  it.runIf(TEST_STORE === "sqlite").each([
    ["the primary", false],
    ["the whole process group, as systemd does", true],
  ])("drains every worker of WORKERS=2 the same way, SIGTERM sent to %s", async (_case, wholeGroup) => {
    const { server, world } = await seededServer(
      { WORKERS: "2", SHUTDOWN_DRAIN_MS: "1500" },
      { ownProcessGroup: wholeGroup },
    );
    await server.waitForLine((line) => line.workers === 2);
    const before = await fire(server.url, world, 60, 200);
    const drainStarted = Date.now();
    if (wholeGroup) process.kill(-server.child.pid!, "SIGTERM");
    else server.child.kill("SIGTERM");
    const during = await fire(server.url, world, 60, 500);
    const readiness = await Promise.all(
      Array.from(
        { length: 4 },
        async () => (await new RawConnection(server.url).request("GET", "/readyz")).status,
      ),
    );
    expect(readiness).toEqual([503, 503, 503, 503]);
    const statuses = await Promise.all([...before, ...during]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await server.exited).code).toBe(0);
    // The whole drain, not cut short.
    expect(Date.now() - drainStarted).toBeGreaterThanOrEqual(1_400);
    expect(server.lines.map((line) => line.msg)).not.toContain("ending the drain");
  });
});
