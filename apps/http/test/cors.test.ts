import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApiRouter } from "../src/embed.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const ORIGIN = "https://app.example";
const METHODS = "DELETE, GET, OPTIONS, PATCH, POST, PUT";
const documentPath = () => `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`;

/** A request as a browser's page sends it: the answer's status, headers and text. */
async function send(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { method, headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("browsers, answered as Dify's service API answers them (flask-cors)", () => {
  it("echoes the page's origin with Vary on answers, errors included, and allows any origin without one", async () => {
    const key = { authorization: `Bearer ${world.apps["advanced-chat"].key}` };
    for (const [status, headers] of [
      [200, { ...key, origin: ORIGIN }],
      [401, { origin: ORIGIN }],
    ] as const) {
      const answer = await send(server.url, "GET", "/v1/site", headers);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(answer.headers.get("vary")).toBe("Origin");
    }
    const withoutOrigin = await send(server.url, "GET", "/v1/site", key);
    expect(withoutOrigin.headers.get("access-control-allow-origin")).toBe("*");
    expect(withoutOrigin.headers.get("vary")).toBeNull();
  });

  it("answers a preflight 200 with the route's methods, the requested headers it allows, and no body", async () => {
    const answer = await send(server.url, "OPTIONS", documentPath(), {
      origin: ORIGIN,
      "access-control-request-method": "DELETE",
      "access-control-request-headers": "Content-Type, authorization, x-custom",
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
    expect(answer.headers.get("allow")).toBe("GET, DELETE, PATCH, HEAD, OPTIONS");
    expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(answer.headers.get("access-control-allow-methods")).toBe(METHODS);
    expect(answer.headers.get("access-control-allow-headers")).toBe("Content-Type, authorization");
  });

  it("answers a plain OPTIONS, or a preflight for a method it never serves, without the preflight's headers", async () => {
    const requests: Record<string, string>[] = [
      {},
      { origin: ORIGIN, "access-control-request-method": "TRACE" },
    ];
    for (const headers of requests) {
      const answer = await send(server.url, "OPTIONS", "/v1/site", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(answer.headers.get("access-control-allow-methods")).toBeNull();
      expect(answer.headers.get("access-control-allow-headers")).toBeNull();
    }
  });

  it("lists OPTIONS in a 405's Allow, with the CORS headers", async () => {
    const answer = await send(server.url, "PUT", documentPath(), { origin: ORIGIN });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, DELETE, PATCH, HEAD, OPTIONS");
    expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("leaves an embedded router's CORS to its host: no headers of its own, OPTIONS not served", async () => {
    const router = createServiceApiRouter({ databaseUrl: server.databaseUrl });
    const host = express().use("/kb", router);
    const listening = host.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    try {
      const answer = await send(base, "OPTIONS", "/kb/site", {
        origin: ORIGIN,
        "access-control-request-method": "GET",
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, HEAD");
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      listening.close();
      await router.close();
    }
  });
});
