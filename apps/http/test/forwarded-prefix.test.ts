import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

/** The `servers` of the document the server answers with these request headers. */
async function serversOf(server: TestServer, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(`${server.url}/v1/openapi.json`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { servers: unknown }).servers;
}

describe("the OpenAPI document's server behind a proxy that serves it under a path (X-Forwarded-Prefix)", () => {
  let trusting: TestServer;
  let plain: TestServer;
  beforeAll(async () => {
    [trusting, plain] = await Promise.all([startTestServer({ TRUST_PROXY: "loopback" }), startTestServer()]);
  });
  afterAll(() => Promise.all([trusting?.stop(), plain?.stop()]));

  it("puts the path a trusted proxy names before /v1, with or without its trailing slash", async () => {
    expect(await serversOf(trusting, { "X-Forwarded-Prefix": "/svc" })).toEqual([{ url: "/svc/v1" }]);
    expect(await serversOf(trusting, { "X-Forwarded-Prefix": "/svc/" })).toEqual([{ url: "/svc/v1" }]);
    expect(await serversOf(trusting, { "X-Forwarded-Prefix": "/api/kb-1" })).toEqual([
      { url: "/api/kb-1/v1" },
    ]);
    expect(await serversOf(trusting, { "X-Forwarded-Prefix": "/" })).toEqual([{ url: "/v1" }]);
    expect(await serversOf(trusting, {})).toEqual([{ url: "/v1" }]);
  });

  it("joins the paths of proxies in a row, as one header's comma-separated values", async () => {
    expect(await serversOf(trusting, { "X-Forwarded-Prefix": "/edge, /svc" })).toEqual([
      { url: "/edge/svc/v1" },
    ]);
  });

  it("ignores a value that is not a plain path, keeping /v1", async () => {
    for (const value of [
      "svc",
      "//evil.example",
      "https://evil.example/svc",
      "/svc/../admin",
      "/a b",
      '/svc"><script>',
      "/svc, evil",
      "/svc//x",
    ])
      expect(await serversOf(trusting, { "X-Forwarded-Prefix": value }), value).toEqual([{ url: "/v1" }]);
  });

  it("ignores the header from a client it does not trust as a proxy (TRUST_PROXY unset)", async () => {
    expect(await serversOf(plain, { "X-Forwarded-Prefix": "/svc" })).toEqual([{ url: "/v1" }]);
  });
});
