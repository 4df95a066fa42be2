import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceApiRouter } from "../src/index.js";
import { capturedLogger } from "./support/captured-logger.js";
import { seededDatabase } from "./support/seeded-database.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host app with the router at `/v1` and its own 404 last; its base URL and the router's log lines. */
async function hostWithRouter() {
  const { databaseUrl } = await seededDatabase(cleanups);
  const { logger, lines } = capturedLogger();
  const router = createServiceApiRouter({ databaseUrl, logger });
  cleanups.push(() => router.close());
  await router.ready;
  const app = express().use("/v1", router);
  app.use((_req, res) => {
    res.status(404).send("the host's 404");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
}

describe("the embedded router leaves to its host", () => {
  it("request ids, access log lines and CORS headers", async () => {
    const { base, lines } = await hostWithRouter();
    const response = await fetch(`${base}/v1/site`, {
      headers: {
        authorization: "Bearer app-not-a-key",
        origin: "https://page.example",
        "x-request-id": "abc",
      },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-request-id")).toBeNull();
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(lines.filter((line) => line.msg === "request")).toEqual([]);
  });

  it("rate limits: failed authentication past the standalone server's default limit still answers 401", async () => {
    const { base } = await hostWithRouter();
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < 110; attempt++) {
      const response = await fetch(`${base}/v1/site`, { headers: { authorization: "Bearer app-not-a-key" } });
      statuses.add(response.status);
      expect(response.headers.get("ratelimit")).toBeNull();
    }
    expect([...statuses]).toEqual([401]);
  });

  it("the probes, the reference page and metrics", async () => {
    const { base } = await hostWithRouter();
    for (const path of ["/healthz", "/readyz", "/docs", "/metrics", "/v1/healthz", "/v1/docs"]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status, body: await response.text() }).toEqual({
        path,
        status: 404,
        body: "the host's 404",
      });
    }
  });
});
