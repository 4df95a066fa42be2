import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqlitePathOf } from "@service-api/adapters-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually, sleep } from "./support/load.js";
import { type Sample, sampleValue, scrape } from "./support/prometheus.js";
import { seedWorkspace } from "./support/seed.js";
import { spawnServer } from "./support/server-process.js";
import { TEST_STORE } from "./support/test-database.js";
import { startTestServer } from "./support/test-server.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWithMetrics(environment: Record<string, string> = {}) {
  const server = await startTestServer({ METRICS_PORT: "0", ...environment });
  cleanups.push(() => server.stop());
  const world = await seedWorkspace(server.store.repositories);
  const metricsUrl = server.running.metricsUrl!;
  return { server, world, metricsUrl };
}

/** Sets the database's `default_transaction_read_only` and ends its connections, which then start so. */
async function readOnly(databaseUrl: string, setting: "on" | "off") {
  const name = new URL(databaseUrl).pathname.slice(1);
  // Its own session reads and writes whatever the database's default (to turn it off again).
  const client = new pg.Client({
    connectionString: databaseUrl,
    options: "-c default_transaction_read_only=off",
  });
  await client.connect();
  try {
    await client.query(`alter database ${name} set default_transaction_read_only = ${setting}`);
    await client.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
  } finally {
    await client.end();
  }
}

const REQUESTS = "service_api_http_requests_total";
const DURATION_COUNT = "service_api_http_request_duration_seconds_count";

/** The standalone server with `WORKERS=2` and metrics, its demo app's key, and its metrics URL. */
async function clusterWithMetrics() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-metrics-"));
  const server = await spawnServer(directory, { WORKERS: "2", METRICS_PORT: "0", DEMO: "auto" });
  cleanups.push(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
    rmSync(directory, { recursive: true, force: true });
  });
  const metrics = await server.waitForLine((line) => line.msg === "metrics listening");
  await eventually(() => server.stderr().includes("Get App WebApp Settings"));
  const appKey = /app-[A-Za-z0-9]{40}/.exec(server.stderr())![0];
  return { server, appKey, metricsUrl: String(metrics.url) };
}

/** `GET /v1/site` on a connection of its own, so that the primary hands each to the next worker. */
function getSite(url: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    get(`${url}/v1/site`, { agent: false, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

/** The pids that logged a request answered with this status (any status when none is given). */
function servingPids(lines: Record<string, unknown>[], status?: number): Set<number> {
  return new Set(
    lines
      .filter((line) => line.msg === "request" && (status === undefined || line.status === status))
      .map((line) => Number(line.pid)),
  );
}

/** The samples of a scrape that may never go down: counters, histograms' and summaries' series. */
function countedSamples(text: string, samples: Sample[]): Sample[] {
  const types = new Map(
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!] as const),
  );
  return samples.filter((sample) => {
    const type = types.get(sample.name);
    if (type) return type === "counter";
    const family = types.get(sample.name.replace(/_(?:bucket|count|sum)$/, ""));
    return family === "histogram" || (family === "summary" && !sample.name.endsWith("_bucket"));
  });
}

function expectNoneWentDown(before: { text: string; samples: Sample[] }, after: Sample[]): void {
  const counted = countedSamples(before.text, before.samples);
  expect(counted.some((sample) => sample.name === REQUESTS)).toBe(true);
  const lower = counted.filter((sample) => sampleValue(after, sample.name, sample.labels) < sample.value);
  expect(lower.map(({ name, labels, value }) => ({ name, labels, value }))).toEqual([]);
}

describe("metrics", () => {
  it("counts and logs a request whose client went away before its answer as 499, never as 200", async () => {
    const { server, world, metricsUrl } = await serverWithMetrics();
    const variableRoute = "/v1/conversations/:conversation_id/variables/:variable_id";
    const labels = (status: string) => ({ route: variableRoute, method: "PUT", status });
    const before = (await scrape(metricsUrl)).samples;
    // A body declared 100 bytes long, 4 of them sent, then the connection closed.
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `PUT /v1/conversations/${world.conversation.id}/variables/${world.variable.id} HTTP/1.1\r\n` +
        `Host: localhost\r\nAuthorization: Bearer ${world.apps["advanced-chat"].key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"va',
    );
    await sleep(100);
    socket.destroy();

    await eventually(async () => {
      const samples = (await scrape(metricsUrl)).samples;
      return (
        sampleValue(samples, REQUESTS, labels("499")) - sampleValue(before, REQUESTS, labels("499")) === 1
      );
    });
    const after = (await scrape(metricsUrl)).samples;
    expect(sampleValue(after, REQUESTS, labels("200"))).toBe(sampleValue(before, REQUESTS, labels("200")));
    const logged = server
      .logText()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"') && line.includes('"method":"PUT"'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ status: 499 });
  });

  it("counts and logs the requests Node refuses before Express sees them (bad HTTP, headers too large)", async () => {
    const { server, metricsUrl } = await serverWithMetrics();
    const before = (await scrape(metricsUrl)).samples;
    const send = (text: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(new URL(server.url).port), "127.0.0.1", () => socket.end(text));
        socket.on("close", () => resolve());
        socket.resume();
      });
    await send("NOT A REQUEST\r\n\r\n");
    await send(`GET /v1/site HTTP/1.1\r\nHost: x\r\nX-Padding: ${"x".repeat(20_000)}\r\n\r\n`);
    const after = (await scrape(metricsUrl)).samples;
    const moved = (status: string) =>
      sampleValue(after, REQUESTS, { route: "unparsed", method: "unknown", status }) -
      sampleValue(before, REQUESTS, { route: "unparsed", method: "unknown", status });
    expect([moved("400"), moved("431")]).toEqual([1, 1]);
    const refused = server.logs.filter((line) => line.msg === "request refused");
    expect(refused).toEqual([
      expect.objectContaining({ level: 30, status: 400, code: "bad_request" }),
      expect.objectContaining({ level: 30, status: 431, code: "request_header_fields_too_large" }),
    ]);
  });

  it("counts requests by route template, method and status, and never labels with an id, a key or a user", async () => {
    const { server, world, metricsUrl } = await serverWithMetrics();
    const before = (await scrape(metricsUrl)).samples;
    const appKey = world.apps["advanced-chat"].key;
    for (let request = 0; request < 3; request++)
      expect((await call(server.url, "GET", "/v1/site", { token: appKey })).status).toBe(200);
    expect((await call(server.url, "GET", "/v1/site", { token: "app-unknown" })).status).toBe(401);
    const documentPath = `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`;
    expect((await call(server.url, "GET", documentPath, { token: world.datasetKey })).status).toBe(200);
    const missing = `/v1/datasets/${world.dataset.id}/documents/${crypto.randomUUID()}`;
    expect((await call(server.url, "GET", missing, { token: world.datasetKey })).status).toBe(404);
    const strayPath = `/v1/stray-${crypto.randomUUID()}`;
    expect((await call(server.url, "GET", strayPath)).status).toBe(404);
    const variablePath = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    const put = await call(server.url, "PUT", variablePath, {
      token: appKey,
      body: { value: "x", user: "alice" },
    });
    expect(put.status).toBe(200);

    const { samples, text } = await scrape(metricsUrl);
    const moved = (labels: Record<string, string>) =>
      sampleValue(samples, REQUESTS, labels) - sampleValue(before, REQUESTS, labels);
    expect(moved({ route: "/v1/site", method: "GET", status: "200" })).toBe(3);
    expect(moved({ route: "/v1/site", method: "GET", status: "401" })).toBe(1);
    const documentRoute = "/v1/datasets/:dataset_id/documents/:document_id";
    expect(moved({ route: documentRoute, method: "GET", status: "200" })).toBe(1);
    expect(moved({ route: documentRoute, method: "GET", status: "404" })).toBe(1);
    expect(moved({ route: "unmatched", method: "GET", status: "404" })).toBe(1);
    const variableRoute = "/v1/conversations/:conversation_id/variables/:variable_id";
    expect(moved({ route: variableRoute, method: "PUT", status: "200" })).toBe(1);
    expect(
      sampleValue(samples, "service_api_http_request_duration_seconds_count", {
        route: "/v1/site",
        method: "GET",
        status: "200",
      }),
    ).toBe(3);
    expect(sampleValue(samples, "service_api_http_requests_in_flight")).toBe(0);
    expect(sampleValue(samples, "service_api_key_grants_total", { result: "hit" })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(samples, "service_api_key_grants_total", { result: "miss" })).toBeGreaterThanOrEqual(
      2,
    );
    expect(sampleValue(samples, "service_api_store_outage")).toBe(0);
    expect(sampleValue(samples, "service_api_store_conflicts_lost_total")).toBe(0);
    expect(sampleValue(samples, "service_api_store_lock_waits_exceeded_total")).toBe(0);
    expect(samples.some((sample) => sample.name === "process_cpu_user_seconds_total")).toBe(true);
    expect(samples.some((sample) => sample.name === "nodejs_heap_size_used_bytes")).toBe(true);
    const pool = samples.filter((sample) => sample.name === "service_api_db_pool_connections");
    expect(pool.map((sample) => sample.labels.state).sort()).toEqual(
      TEST_STORE === "postgres" ? ["idle", "in_use", "waiting"] : [],
    );

    for (const secret of [
      world.dataset.id,
      world.document.id,
      world.conversation.id,
      world.variable.id,
      appKey,
      world.datasetKey,
      "alice",
      strayPath,
      "app-unknown",
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it("counts requests refused by a rate limit", async () => {
    const { server, metricsUrl } = await serverWithMetrics({ AUTH_FAILURE_LIMIT: "2" });
    for (let request = 0; request < 4; request++)
      await call(server.url, "GET", "/v1/site", { token: "app-x" });
    const { samples } = await scrape(metricsUrl);
    expect(sampleValue(samples, "service_api_rate_limited_total", { limit: "auth_failures" })).toBe(2);
    expect(sampleValue(samples, REQUESTS, { route: "/v1/site", method: "GET", status: "429" })).toBe(2);
  });

  it.runIf(TEST_STORE === "sqlite")(
    "counts a write refused for a lock held elsewhere, which is no outage",
    async () => {
      const { server, world, metricsUrl } = await serverWithMetrics({ SQLITE_BUSY_TIMEOUT_MS: "50" });
      const other = new Database(sqlitePathOf(server.databaseUrl));
      other.exec("begin immediate");
      const variablePath = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
      const token = world.apps["advanced-chat"].key;
      try {
        expect(
          (await call(server.url, "PUT", variablePath, { token, body: { value: "x", user: "alice" } }))
            .status,
        ).toBe(503);
        const { samples } = await scrape(metricsUrl);
        // The PUT, and perhaps the record of its key's first use, beside it.
        expect(sampleValue(samples, "service_api_store_lock_waits_exceeded_total")).toBeGreaterThanOrEqual(1);
        expect(sampleValue(samples, "service_api_store_outage")).toBe(0);
        expect(sampleValue(samples, "service_api_store_unavailable_total")).toBe(0);
      } finally {
        other.exec("rollback");
        other.close();
      }
    },
  );

  it.runIf(TEST_STORE === "postgres")(
    "shows a store outage while it lasts, and its failed calls",
    async () => {
      const { server, world, metricsUrl } = await serverWithMetrics();
      const variablePath = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
      const token = world.apps["advanced-chat"].key;
      const put = () => call(server.url, "PUT", variablePath, { token, body: { value: "x", user: "alice" } });
      expect((await put()).status).toBe(200);
      // A database that only reads (a standby after a failover): every write is an outage.
      await readOnly(server.databaseUrl, "on");
      await eventually(async () => (await put()).status === 503);
      const { samples } = await scrape(metricsUrl);
      expect(sampleValue(samples, "service_api_store_outage")).toBe(1);
      expect(sampleValue(samples, "service_api_store_unavailable_total")).toBeGreaterThanOrEqual(1);
      await readOnly(server.databaseUrl, "off");
      await eventually(async () => {
        await put();
        return sampleValue((await scrape(metricsUrl)).samples, "service_api_store_outage") === 0;
      });
    },
  );

  it("answers nothing but GET /metrics on its listener, and is off without METRICS_PORT", async () => {
    const { metricsUrl } = await serverWithMetrics();
    expect((await fetch(metricsUrl.replace("/metrics", "/v1/site"))).status).toBe(404);
    const plain = await startTestServer();
    cleanups.push(() => plain.stop());
    expect(plain.running.metricsUrl).toBeUndefined();
  });

  it.runIf(TEST_STORE === "sqlite")(
    "sums every worker's metrics on the primary's listener with WORKERS=2",
    async () => {
      const { server, appKey, metricsUrl } = await clusterWithMetrics();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => call(server.url, "GET", "/v1/site", { token: appKey })),
      );
      expect(responses.every((response) => response.status === 200)).toBe(true);
      const { samples } = await scrape(metricsUrl);
      expect(sampleValue(samples, REQUESTS, { route: "/v1/site", method: "GET", status: "200" })).toBe(20);
      const workersServing = server.lines.filter((line) => line.msg === "request").map((line) => line.pid);
      expect(new Set(workersServing).size).toBeGreaterThanOrEqual(1);
    },
  );

  it.runIf(TEST_STORE === "sqlite")(
    "keeps a dead worker's counts with WORKERS=2, so that no counter of the cluster goes down",
    async () => {
      const { server, appKey, metricsUrl } = await clusterWithMetrics();
      const statuses = await Promise.all(Array.from({ length: 40 }, () => getSite(server.url, appKey)));
      expect(statuses.every((status) => status === 200)).toBe(true);
      const ok = { route: "/v1/site", method: "GET", status: "200" };
      await eventually(() => servingPids(server.lines, 200).size === 2);
      const before = await scrape(metricsUrl);
      expect(sampleValue(before.samples, REQUESTS, ok)).toBe(40);
      expect(sampleValue(before.samples, DURATION_COUNT, ok)).toBe(40);

      const workers = servingPids(server.lines);
      const [killed] = workers;
      process.kill(killed!, "SIGKILL");
      await server.waitForLine((line) => line.msg === "worker exited; starting another");
      // Requests of another series (401) until the replacement answers one.
      await eventually(async () => {
        expect(await getSite(server.url)).toBe(401);
        return [...servingPids(server.lines)].some((pid) => !workers.has(pid));
      });

      const after = (await scrape(metricsUrl)).samples;
      expectNoneWentDown(before, after);
      expect(sampleValue(after, REQUESTS, ok)).toBe(40);
      expect(sampleValue(after, DURATION_COUNT, ok)).toBe(40);
      // A dead worker's gauges are not kept: nothing is in flight.
      expect(sampleValue(after, "service_api_http_requests_in_flight")).toBe(0);

      expect(await getSite(server.url, appKey)).toBe(200);
      const later = (await scrape(metricsUrl)).samples;
      expect(sampleValue(later, REQUESTS, ok)).toBe(41);
    },
  );

  it.runIf(TEST_STORE === "sqlite")(
    "answers a scrape when a worker hangs, counting it as it last answered",
    async () => {
      const { server, appKey, metricsUrl } = await clusterWithMetrics();
      await Promise.all(Array.from({ length: 20 }, () => getSite(server.url, appKey)));
      await eventually(() => servingPids(server.lines, 200).size === 2);
      const before = await scrape(metricsUrl);
      const [stopped] = servingPids(server.lines);
      process.kill(stopped!, "SIGSTOP");
      try {
        const started = performance.now();
        const after = (await scrape(metricsUrl)).samples;
        expect(performance.now() - started).toBeLessThan(4_000);
        expectNoneWentDown(before, after);
        expect(sampleValue(after, REQUESTS, { route: "/v1/site", method: "GET", status: "200" })).toBe(20);
      } finally {
        process.kill(stopped!, "SIGCONT");
      }
    },
  );

  it.runIf(TEST_STORE === "sqlite" && process.platform === "linux")(
    "shows one process's file descriptor limit with WORKERS=2, not their sum",
    async () => {
      const { server, metricsUrl } = await clusterWithMetrics();
      const limits = readFileSync(`/proc/${server.child.pid}/limits`, "utf8");
      const maxOpenFiles = Number(/^Max open files +(\d+)/m.exec(limits)![1]);
      const { samples } = await scrape(metricsUrl);
      expect(sampleValue(samples, "process_max_fds")).toBe(maxOpenFiles);
      expect(sampleValue(samples, "process_open_fds")).toBeGreaterThan(0);
      expect(sampleValue(samples, "process_open_fds")).toBeLessThan(maxOpenFiles);
      const versions = samples.filter((sample) => sample.name === "nodejs_version_info");
      expect(versions.map((sample) => sample.value)).toEqual([1]);
    },
  );
});
