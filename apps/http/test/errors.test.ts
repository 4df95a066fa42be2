import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { runSql } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const variablePath = () => `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
const appKey = () => world.apps["advanced-chat"].key;

describe("errors", () => {
  it("answers unknown routes with 404 not_found in the error shape", async () => {
    // `/V1`: paths match case-sensitively, as Dify's Flask routes do.
    for (const path of ["/", "/v1", "/v1/nope", "/v2/site", "/V1/site", "/v1/datasets/tags/nope"]) {
      const response = await call(server.url, "GET", path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: "not_found" });
      expect(response.headers.get("content-type")).toContain("application/json");
    }
  });

  it("takes one trailing slash as the same route, and a path with an empty segment as no route", async () => {
    const document = `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`;
    const answers = async (path: string) =>
      (await call(server.url, "GET", path, { token: world.datasetKey })).status;
    expect(await answers(`${document}/`)).toBe(200);
    expect(await answers(`/v1/datasets/${world.dataset.id}/metadata/`)).toBe(200);
    expect(await answers(`${document}//`)).toBe(404);
    expect(await answers(`/v1/datasets//documents/${world.document.id}`)).toBe(404);
    expect(await answers(`/v1/datasets/${world.dataset.id}/documents/${world.document.id}/x`)).toBe(404);
  });

  it("answers a wrong method on a known route with 405 and the methods allowed", async () => {
    const cases = [
      // OPTIONS too, as Werkzeug lists it: Flask answers it on every route.
      ["DELETE", "/v1/site", "GET, HEAD, OPTIONS"],
      [
        "POST",
        `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`,
        "GET, DELETE, PATCH, HEAD, OPTIONS",
      ],
      ["GET", "/v1/datasets/tags/binding", "POST, OPTIONS"],
      ["PATCH", variablePath(), "PUT, OPTIONS"],
      ["PUT", `/v1/datasets/${world.dataset.id}/metadata`, "GET, POST, HEAD, OPTIONS"],
    ];
    for (const [method, path, allowed] of cases) {
      const response = await call(server.url, method!, path!, { token: appKey() });
      expect(response.body).toEqual({
        status: 405,
        code: "method_not_allowed",
        message: "The method is not allowed for the requested URL.",
      });
      expect(response.headers.get("allow")).toBe(allowed);
    }
  });

  it("answers a body over 1 MB with 413 and writes nothing", async () => {
    const response = await call(server.url, "PUT", variablePath(), {
      token: appKey(),
      rawBody: JSON.stringify({ value: "x".repeat(1_100_000), user: "alice" }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ status: 413, code: "request_entity_too_large" });
    expect(
      (await server.store.repositories.conversations.findVariable(world.conversation.id, world.variable.id))
        ?.value,
    ).toBe(world.variable.value);
  });

  it("answers a non-JSON body with 415", async () => {
    const typeHeaders: Record<string, string>[] = [
      { "content-type": "text/plain" },
      { "content-type": "application/x-www-form-urlencoded" },
      {},
    ];
    for (const headers of typeHeaders) {
      const response = await call(server.url, "PUT", variablePath(), {
        token: appKey(),
        rawBody: "value=x",
        headers,
      });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ status: 415, code: "unsupported_media_type" });
    }
  });

  it("answers broken or empty JSON with 400 bad_request", async () => {
    for (const rawBody of ['{"value": ', "", "not json", "'single quoted'"]) {
      const response = await call(server.url, "PUT", variablePath(), {
        token: appKey(),
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.body).toEqual({
        status: 400,
        code: "bad_request",
        message: "Invalid JSON payload received or JSON payload is empty.",
      });
    }
  });

  it("answers JSON that is not an object with 400 invalid_param naming the body", async () => {
    for (const rawBody of ['"just a string"', "42", "null", "true"]) {
      const response = await call(server.url, "PUT", variablePath(), {
        token: appKey(),
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, code: "invalid_param" });
      expect((response.body as { message: string }).message).toMatch(/^body: /);
    }
  });

  it("accepts JSON with a charset and a +json type", async () => {
    for (const type of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const response = await call(server.url, "PUT", variablePath(), {
        token: appKey(),
        rawBody: JSON.stringify({ value: "ok", user: "alice" }),
        headers: { "content-type": type },
      });
      expect(response.status).toBe(200);
    }
  });

  it("checks the key before the body", async () => {
    const response = await call(server.url, "PUT", variablePath(), {
      rawBody: "{",
      headers: { "content-type": "text/plain" },
    });
    expect(response.status).toBe(401);
  });

  it("serves a GET that carries Content-Type: application/json and no body", async () => {
    const response = await call(server.url, "GET", "/v1/site", {
      token: appKey(),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
  });

  it("answers a malformed percent-encoding in the path with 400, not 500", async () => {
    const response = await call(server.url, "GET", "/v1/datasets/%E0%A4%A/metadata", {
      token: world.datasetKey,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("hides internal failures behind a generic 500, logs them, and keeps serving", async () => {
    const { repositories } = server.store;
    // A stored value that is not JSON: the repository throws while reading it.
    await runSql(server.databaseUrl, "update conversation_variables set value = 'not json' where id = $1", [
      world.variable.id,
    ]);
    const listPath = `/v1/conversations/${world.conversation.id}/variables?user=alice`;
    const response = await call(server.url, "GET", listPath, { token: appKey() });
    expect(response.body).toEqual({ status: 500, code: "unknown", message: "Internal Server Error" });
    expect(response.text).not.toMatch(/SyntaxError|JSON|at /);
    const failure = server.logs.find((line) => line.msg === "request failed");
    expect(failure).toMatchObject({ level: 50, requestId: response.headers.get("x-request-id") });
    // An update replaces such a value without reading it.
    const updated = await call(server.url, "PUT", variablePath(), {
      token: appKey(),
      body: { value: "mended", user: "alice" },
    });
    expect(updated.status).toBe(200);
    expect((await call(server.url, "GET", listPath, { token: appKey() })).status).toBe(200);
    await repositories.conversations.saveVariable(world.variable);
    expect((await call(server.url, "GET", "/v1/site", { token: appKey() })).status).toBe(200);
  });
});
