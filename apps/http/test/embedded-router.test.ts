import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_SERVER_URL } from "@service-api/adapters-postgres/testing";
import { StoreOptionsError } from "@service-api/stores";
import express, { type Express, type Router } from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ConfigError,
  createServiceApiRouter,
  DomainError,
  InvalidImportError,
  NotFoundError,
  openServiceApi,
  type ServiceApiOptions,
  SqliteFileError,
  StoreClosedError,
  StoreUnavailableError,
} from "../src/index.js";
import { CLOSED_MESSAGE } from "../src/lifecycle/retrying-opener.js";
import { capturedLogger } from "./support/captured-logger.js";
import { sleep } from "./support/load.js";
import { seededDatabase } from "./support/seeded-database.js";
import { startTcpProxy } from "./support/tcp-proxy.js";
import { TEST_STORE } from "./support/test-database.js";
import { startTestServer } from "./support/test-server.js";

const UNAVAILABLE = {
  status: 503,
  code: "service_unavailable",
  message:
    "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.",
};
const UNAUTHORIZED = { status: 401, code: "unauthorized" };

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host's `app`, its own 404 last, listening on an ephemeral port until the test ends: its base URL. */
async function served(app: Express): Promise<string> {
  app.use((_req, res) => {
    res.status(404).send("the host's 404");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A host Express app serving `router` at `mountPath`; its base URL. */
const host = (router: Router, mountPath = "/kb") => served(express().use(mountPath, router));

async function get(url: string, key = "app-not-a-key") {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

const temporaryFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), "service-api-embedded-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
};

describe("a router whose store cannot be opened", () => {
  it("answers 503 with Retry-After while PostgreSQL cannot be reached, logs no failed request, and closes", async () => {
    const { logger, lines } = capturedLogger();
    const router = createServiceApiRouter({
      databaseUrl: "postgres://postgres@127.0.0.1:1/service_api",
      logger,
    });
    await expect(router.ready).rejects.toThrow(/ECONNREFUSED/);
    const base = await host(router);
    for (let request = 0; request < 3; request += 1)
      expect(await get(`${base}/kb/site`)).toEqual({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(lines.map((line) => line.msg)).toEqual(["store unavailable"]);
    await expect(router.close()).resolves.toBeUndefined();
    expect(await get(`${base}/kb/site`)).toMatchObject({ status: 503, body: { message: CLOSED_MESSAGE } });
  });

  it("tries again on a request once a second has passed, and serves from then on", async () => {
    // A file where the SQLite file's folder should be: nothing opens until it is gone.
    const folder = temporaryFolder();
    writeFileSync(join(folder, "data"), "");
    const { logger, lines } = capturedLogger();
    const router = createServiceApiRouter({
      databaseUrl: `file:${join(folder, "data", "kb.sqlite")}`,
      logger,
    });
    cleanups.push(() => router.close());
    await router.ready.catch(() => {});
    const failedAt = performance.now();
    const base = await host(router);
    expect(await get(`${base}/kb/site`)).toMatchObject({ status: 503, retryAfter: "1" });
    rmSync(join(folder, "data"));
    // Within the back-off (1 s from the failed attempt; a machine too slow to ask within it skips
    // this step): answered without trying.
    if (performance.now() - failedAt < 800)
      expect(await get(`${base}/kb/site`)).toMatchObject({ status: 503, retryAfter: "1" });
    await sleep(1100);
    expect(await get(`${base}/kb/site`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await get(`${base}/kb/site`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(lines.map((line) => line.msg)).toEqual(["store unavailable", "store available again"]);
  });

  describe.runIf(TEST_STORE === "postgres")("on PostgreSQL", () => {
    it("opens once PostgreSQL can be reached again, after answering 503 while it could not", async () => {
      const { databaseUrl, world } = await seededDatabase(cleanups);
      const server = new URL(TEST_SERVER_URL);
      const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
      cleanups.push(() => proxy.close());
      await proxy.cut();
      const throughProxy = new URL(databaseUrl);
      throughProxy.port = String(proxy.port);
      const router = createServiceApiRouter({
        databaseUrl: throughProxy.toString(),
        pool: { connectionTimeoutMs: 1000 },
        logger: capturedLogger().logger,
      });
      cleanups.push(() => router.close());
      const base = await host(router);
      const key = world.apps["advanced-chat"].key;
      expect(await get(`${base}/kb/site`, key)).toEqual({ status: 503, retryAfter: "1", body: UNAVAILABLE });
      await proxy.restore();
      await sleep(1100);
      expect(await get(`${base}/kb/site`, key)).toMatchObject({
        status: 200,
        body: { title: "advanced-chat site" },
      });
    });
  });

  it("throws a bad option at once, and openServiceApi rejects it, neither creating the database", async () => {
    const file = join(temporaryFolder(), "kb.sqlite");
    expect(() => createServiceApiRouter({ databaseUrl: `file:${file}`, filesUrl: "nope" })).toThrow(
      ConfigError,
    );
    await expect(openServiceApi({ databaseUrl: `file:${file}`, filesUrl: "nope" })).rejects.toThrow(
      ConfigError,
    );
    expect(existsSync(file)).toBe(false);
  });

  it("throws a store option no store can take at once, naming it as given", async () => {
    const folder = temporaryFolder();
    const refused: [ServiceApiOptions, string][] = [
      [{ databaseUrl: `file:${join(folder, "kb.sqlite")}`, pool: { max: -1 } }, "pool.max"],
      [{ databaseUrl: "mysql://kb:s3cret@db.internal/kb" }, "not a mysql: URL"],
      [{ databaseUrl: "" }, "not an empty string"],
      [
        { databaseUrl: `file:${join(folder, "kb.sqlite")}`, sqlite: { busyTimeoutMs: -5 } },
        "sqlite.busyTimeoutMs",
      ],
      [
        {
          databaseUrl: `file:${join(folder, "kb.sqlite")}`,
          pool: { statementTimeoutMs: 300, lockTimeoutMs: 300 },
        },
        "pool.lockTimeoutMs: expected less than pool.statementTimeoutMs (300)",
      ],
    ];
    for (const [options, named] of refused) {
      expect(() => createServiceApiRouter(options)).toThrow(StoreOptionsError);
      expect(() => createServiceApiRouter(options)).toThrow(named);
      await expect(openServiceApi(options)).rejects.toThrow(named);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it("takes a short statement time-out alone: the lock time-out follows it, not the default's 5 s", async () => {
    const folder = temporaryFolder();
    const api = await openServiceApi({
      databaseUrl: `file:${join(folder, "kb.sqlite")}`,
      pool: { statementTimeoutMs: 300 },
    });
    await api.close();
  });
});

/** A host app with its own routes before and after `router`, which is mounted at the root. */
function hostAround(router: Router): Promise<string> {
  const app = express();
  app.get("/before", (_req, res) => {
    res.send("the host's route before");
  });
  app.use(router);
  app.get("/after", (_req, res) => {
    res.send("the host's route after");
  });
  return served(app);
}

const text = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
};

describe("the host's own paths", () => {
  const hostPathsServed = async (base: string) => {
    expect(await text(`${base}/before`)).toEqual({ status: 200, body: "the host's route before" });
    expect(await text(`${base}/after`)).toEqual({ status: 200, body: "the host's route after" });
    expect(await text(`${base}/nowhere`)).toEqual({ status: 404, body: "the host's 404" });
    expect(await text(`${base}/datasets/tags/binding/more`)).toEqual({ status: 404, body: "the host's 404" });
  };

  it("fall through to the host while the store cannot be opened; the API's paths answer 503", async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, "data"), "");
    const router = createServiceApiRouter({
      databaseUrl: `file:${join(folder, "data", "kb.sqlite")}`,
      logger: capturedLogger().logger,
    });
    cleanups.push(() => router.close());
    await router.ready.catch(() => {});
    const base = await hostAround(router);
    await hostPathsServed(base);
    expect(await get(`${base}/site`)).toMatchObject({ status: 503, retryAfter: "1" });
    expect(await get(`${base}/datasets/tags/`)).toMatchObject({ status: 503 });
    expect(await get(`${base}/openapi.json`)).toMatchObject({ status: 503 });
  });

  it("fall through to the host once the router is closed", async () => {
    const { databaseUrl } = await seededDatabase(cleanups);
    const router = createServiceApiRouter({ databaseUrl, logger: capturedLogger().logger });
    await router.ready;
    const base = await hostAround(router);
    await hostPathsServed(base);
    await router.close();
    await hostPathsServed(base);
    expect(await get(`${base}/site`)).toMatchObject({ status: 503, body: { message: CLOSED_MESSAGE } });
  });
});

describe("a closed router", () => {
  it("answers requests in flight as usual or 503, and those after it 503 saying it is closed", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const router = createServiceApiRouter({ databaseUrl, logger: capturedLogger().logger });
    const base = await host(router);
    const key = world.apps["advanced-chat"].key;
    expect(await get(`${base}/kb/site`, key)).toMatchObject({ status: 200 });
    const inFlight = Array.from({ length: 20 }, () => get(`${base}/kb/site`, key));
    await sleep(2);
    await router.close();
    const statuses = new Set((await Promise.all(inFlight)).map((answer) => answer.status));
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(await get(`${base}/kb/site`, key)).toEqual({
      status: 503,
      retryAfter: "1",
      body: { status: 503, code: "service_unavailable", message: CLOSED_MESSAGE },
    });
    await expect(router.close()).resolves.toBeUndefined();
  });
});

describe("the router's OpenAPI document", () => {
  let standalone: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    standalone = await startTestServer();
  });
  afterAll(() => standalone.stop());

  it("names where it is mounted as its server, so that generated clients call the right paths", async () => {
    const router = createServiceApiRouter({ databaseUrl: standalone.databaseUrl });
    cleanups.push(() => router.close());
    const serversOf = async (documentUrl: string) =>
      ((await (await fetch(documentUrl)).json()) as { servers: unknown }).servers;
    expect(await serversOf(`${await host(router, "/kb")}/kb/openapi.json`)).toEqual([{ url: "/kb" }]);
    expect(await serversOf(`${await host(router, "/")}/openapi.json`)).toEqual([{ url: "/" }]);
    const nested = express.Router().use("/kb", router);
    expect(await serversOf(`${await host(nested, "/api")}/api/kb/openapi.json`)).toEqual([
      { url: "/api/kb" },
    ]);
  });

  it("puts the path a proxy the host trusts names (X-Forwarded-Prefix) before where it is mounted", async () => {
    const router = createServiceApiRouter({ databaseUrl: standalone.databaseUrl });
    cleanups.push(() => router.close());
    const serversOf = async (base: string) =>
      (
        (await (
          await fetch(`${base}/kb/openapi.json`, { headers: { "X-Forwarded-Prefix": "/svc" } })
        ).json()) as {
          servers: unknown;
        }
      ).servers;
    // The host's own `trust proxy` decides, as it does for the client's address.
    expect(
      await serversOf(await served(express().set("trust proxy", "loopback").use("/kb", router))),
    ).toEqual([{ url: "/svc/kb" }]);
    expect(await serversOf(await host(router, "/kb"))).toEqual([{ url: "/kb" }]);
  });

  it("mounted at /v1, is the very document the standalone server serves, whose server stays /v1", async () => {
    const router = createServiceApiRouter({ databaseUrl: standalone.databaseUrl });
    cleanups.push(() => router.close());
    const base = await host(router, "/v1");
    const served = await (await fetch(`${standalone.url}/v1/openapi.json`)).text();
    expect(JSON.parse(served).servers).toEqual([{ url: "/v1" }]);
    expect(await (await fetch(`${base}/v1/openapi.json`)).text()).toBe(served);
  });
});

describe("the errors an embedder tests with instanceof", () => {
  it("are what direct calls with input their types do not allow throw, on the real store, writing nothing", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const api = await openServiceApi({ databaseUrl });
    try {
      const before = await api.exportData.execute();
      const { workspace, dataset } = world;
      const refusals: [() => Promise<unknown>, string][] = [
        [
          () =>
            api.metadata.createMetadataField.execute({
              workspaceId: workspace.id,
              datasetId: dataset.id,
              type: "bogus" as never,
              name: "odd",
            }),
          "invalid_param",
        ],
        [
          () =>
            api.tags.createKnowledgeTag.execute({
              workspaceId: globalThis.crypto.randomUUID(),
              name: "orphan",
            }),
          "not_found",
        ],
        // PostgreSQL refused a NUL in an id with its own error.
        [
          () =>
            api.getDocument.execute({
              workspaceId: workspace.id,
              datasetId: `${dataset.id}\u0000`,
              documentId: world.document.id,
              metadata: "all",
            }),
          "not_found",
        ],
        [
          () =>
            api.documents.updateDocumentStatus.execute({
              workspaceId: workspace.id,
              datasetId: dataset.id,
              action: "explode" as never,
              documentIds: [world.document.id],
            }),
          "invalid_action",
        ],
      ];
      refusals.push(
        [() => api.issueApiKey.execute({ workspaceId: `${workspace.id}\u0000` }), "not_found"],
        [() => api.revokeApiKey.execute(`${globalThis.crypto.randomUUID()}\u0000`), "not_found"],
      );
      for (const [call, code] of refusals) {
        const error = await call().then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ code });
      }
      expect(await api.exportData.execute()).toEqual(before);
    } finally {
      await api.close();
    }
  });

  it("are exported, and are what direct calls throw", async () => {
    const { databaseUrl, world } = await seededDatabase(cleanups);
    const api = await openServiceApi({ databaseUrl });
    const missing = api.getDocument.execute({
      workspaceId: world.workspace.id,
      datasetId: world.dataset.id,
      documentId: globalThis.crypto.randomUUID(),
      metadata: "only",
    });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toBeInstanceOf(DomainError);
    await expect(api.importData.execute({ not: "an import file" })).rejects.toBeInstanceOf(
      InvalidImportError,
    );
    await api.close();
    const afterClose = api.listMetadataFields.execute({
      workspaceId: world.workspace.id,
      datasetId: world.dataset.id,
    });
    await expect(afterClose).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(afterClose).rejects.toBeInstanceOf(StoreClosedError);
  });

  it("include the SQLite file a store cannot use, which opening rejects with", async () => {
    // A folder where the database file should be.
    const folder = temporaryFolder();
    await expect(openServiceApi({ databaseUrl: folder })).rejects.toBeInstanceOf(SqliteFileError);
  });
});
