import { request } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApiRouter, type ServiceApiRouter } from "../src/embed.js";
import { INVALID_JSON, TOO_LARGE } from "../src/http/http-error.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
let router: ServiceApiRouter;
const hosts = new Map<string, string>();

/** Body parsers a host app may mount before the router, for its own routes; `none` is the baseline. */
const HOST_PARSERS: Record<string, RequestHandler | undefined> = {
  none: undefined,
  "express.raw({ type: '*/*' })": express.raw({ type: "*/*", limit: "5mb" }),
  "express.text({ type: '*/*' })": express.text({ type: "*/*", limit: "5mb" }),
  "express.json()": express.json({ limit: "5mb" }),
  "express.urlencoded()": express.urlencoded(),
};

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
  router = createServiceApiRouter({ databaseUrl: server.databaseUrl });
  await router.ready;
  for (const [name, parser] of Object.entries(HOST_PARSERS)) {
    const app = express();
    if (parser) app.use(parser);
    const listening = app.use("/v1", router).listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    hosts.set(name, `http://127.0.0.1:${(listening.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  await router.close();
  await server.stop();
});

/** Creates a knowledge tag through the host app, the body sent as given; the answer. */
function createTag(base: string, body: string | Buffer, contentType = "application/json", chunked = false) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const sent = request(`${base}/v1/datasets/tags`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${world.datasetKey}`,
        "content-type": contentType,
        ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": Buffer.byteLength(body) }),
      },
    });
    sent.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** A host's JSON parser answers the bodies it refuses itself, by its own rules. */
const hostsLeavingJsonToTheRouter = () =>
  [...hosts].filter(([name]) => !["none", "express.json()"].includes(name));

describe("a router behind a host app's own body parser", () => {
  it("creates from a valid JSON body, whichever parser read it first", async () => {
    for (const [name, base] of hosts) {
      const tagName = `read by ${name}`.slice(0, 40);
      const answer = await createTag(base, `\uFEFF${JSON.stringify({ name: tagName })}`);
      expect(answer, name).toMatchObject({ status: 200, body: { name: tagName } });
      const utf16 = Buffer.from(JSON.stringify({ name: `${tagName} (UTF-16)` }), "utf16le");
      const decoded = await createTag(base, utf16, "application/json; charset=utf-16le");
      expect(decoded, name).toMatchObject({ status: 200, body: { name: `${tagName} (UTF-16)` } });
    }
  });

  it("answers every refused body as it answers one no parser has read, when the host read it as bytes or text", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const cases = [
      { body: '{"name": ', expected: { status: 400, message: INVALID_JSON } },
      { body: '"a string"', expected: { status: 400 } },
      { body: "{}", expected: { status: 400 } },
      { body: "", expected: { status: 400, message: INVALID_JSON } },
      { body: '{"name":"latin"}', type: "application/json; charset=latin1", expected: { status: 415 } },
      {
        body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
        // Text a host has decoded already holds U+FFFD where the bytes were: nothing tells.
        bytesOnly: true,
        expected: { status: 400, message: INVALID_JSON },
      },
      { body: big, chunked: true, expected: { status: 413, message: TOO_LARGE } },
    ];
    for (const { body, type, chunked, bytesOnly, expected } of cases) {
      const label = Buffer.from(body).toString().slice(0, 20);
      const unread = await createTag(hosts.get("none")!, body, type, chunked);
      expect(unread, label).toMatchObject({ status: expected.status, body: expected });
      for (const [name, base] of hostsLeavingJsonToTheRouter()) {
        if (bytesOnly && name.startsWith("express.text")) continue;
        expect(await createTag(base, body, type, chunked), `${name}: ${label}`).toEqual(unread);
      }
    }
  });
});
