import { AsyncLocalStorage } from "node:async_hooks";
import { request } from "node:http";
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApiRouter } from "../src/embed.js";
import { INVALID_JSON } from "../src/http/http-error.js";
import { jsonBody } from "../src/http/json-body.js";
import { call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
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
const storedValue = async () =>
  (await server.store.repositories.conversations.findVariable(world.conversation.id, world.variable.id))
    ?.value;

/** Sets the variable with `body` sent as given; the answer's status and the value stored after. */
async function update(body: string | Uint8Array, headers: Record<string, string>) {
  const response = await call(server.url, "PUT", variablePath(), { token: appKey(), rawBody: body, headers });
  return { status: response.status, body: response.body, stored: await storedValue() };
}

const JSON_TYPE = { "content-type": "application/json" };

const headersFor = (length: number) =>
  `PUT ${variablePath()} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${appKey()}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

/**
 * Sends the headers, then each part of the body 50 ms apart, so each arrives as a chunk of its own;
 * the answer's text (empty when there is none). `thenClose` ends the connection after the last part.
 */
async function sendRaw(headers: string, parts: Buffer[], { thenClose = false } = {}): Promise<string> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), "127.0.0.1");
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(headers);
  for (const part of parts) {
    await pause();
    socket.write(part);
  }
  if (thenClose) {
    await pause();
    socket.destroy();
  }
  await closed;
  return Buffer.concat(received).toString();
}

describe("JSON bodies", () => {
  it("reads a UTF-8 body, dropping a byte order mark as body-parser does", async () => {
    const answer = await update(
      `\uFEFF${JSON.stringify({ value: "with a mark", user: "alice" })}`,
      JSON_TYPE,
    );
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe("with a mark");
  });

  it("decodes a character split between two of the body's chunks", async () => {
    const body = Buffer.from(JSON.stringify({ value: "café crème", user: "alice" }));
    const split = body.indexOf(Buffer.from("é")) + 1;
    const answer = await sendRaw(headersFor(body.length), [body.subarray(0, split), body.subarray(split)]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await storedValue()).toBe("café crème");
  });

  it("reads a body of many chunks whole", async () => {
    // Nearly 1 MB of padding: Node hands the body over in many chunks.
    const value = "é".repeat(90_000);
    const body = `${JSON.stringify({ value, user: "alice" }).slice(0, -1)}${" ".repeat(800_000)}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const answer = await update(body, { "content-type": "application/json; charset=UTF-8" });
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe(value);
  });

  it("answers a byte order mark alone as an empty body, as Flask does: 400 bad_request, writing nothing", async () => {
    const before = await storedValue();
    for (const [body, headers] of [
      ["\uFEFF", JSON_TYPE],
      [Buffer.from("\uFEFF", "utf16le"), { "content-type": "application/json; charset=utf-16le" }],
      [Buffer.from([0xff, 0xfe, 0, 0]), { "content-type": "application/json; charset=utf-32" }],
    ] as const) {
      const answer = await update(body, headers);
      expect(answer.body).toEqual({ status: 400, code: "bad_request", message: INVALID_JSON });
      expect(answer.stored).toBe(before);
    }
  });

  it("answers a chunked body that is empty, or a byte order mark alone, 400 bad_request, writing nothing", async () => {
    const before = await storedValue();
    for (const body of ["", "\uFEFF"]) {
      const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const sent = request(`${server.url}${variablePath()}`, {
          method: "PUT",
          headers: { ...JSON_TYPE, authorization: `Bearer ${appKey()}`, "transfer-encoding": "chunked" },
        });
        sent.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
        sent.on("error", reject);
        sent.end(body);
      });
      expect(answer).toEqual({
        status: 400,
        body: { status: 400, code: "bad_request", message: INVALID_JSON },
      });
    }
    expect(await storedValue()).toBe(before);
  });

  it("decodes a declared UTF-16 charset and a gzip Content-Encoding, as before", async () => {
    const utf16 = Buffer.from(JSON.stringify({ value: "sixteen", user: "alice" }), "utf16le");
    expect((await update(utf16, { "content-type": "application/json; charset=utf-16le" })).stored).toBe(
      "sixteen",
    );
    const gzipped = gzipSync(JSON.stringify({ value: "inflated", user: "alice" }));
    const answer = await update(gzipped, { ...JSON_TYPE, "content-encoding": "gzip" });
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe("inflated");
  });

  it("answers a compressed body that does not decompress 400, writing nothing, and keeps serving", async () => {
    const before = await storedValue();
    const whole = gzipSync(JSON.stringify({ value: "inflated", user: "alice" }));
    for (const [body, encoding] of [
      [Buffer.from("not gzip"), "gzip"],
      [whole.subarray(0, whole.length - 12), "gzip"],
      [Buffer.from("not brotli at all"), "br"],
      [Buffer.from("not deflate"), "deflate"],
    ] as const) {
      const answer = await update(body, { ...JSON_TYPE, "content-encoding": encoding });
      expect(answer.body).toEqual({ status: 400, code: "bad_request", message: INVALID_JSON });
      expect(answer.stored).toBe(before);
    }
    expect((await update(whole, { ...JSON_TYPE, "content-encoding": "gzip" })).stored).toBe("inflated");
  });

  it("answers bytes that are not UTF-8 400 bad_request, as Flask does, never storing U+FFFD", async () => {
    const before = await storedValue();
    // A string value whose bytes are 0xff 0xfe: no UTF-8 sequence starts so.
    const invalid = Buffer.concat([
      Buffer.from('{"value":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","user":"alice"}'),
    ]);
    for (const [body, headers] of [
      [invalid, JSON_TYPE],
      [invalid, { "content-type": "application/json; charset=utf-8" }],
      // Compressed: body-parser reads it.
      [gzipSync(invalid), { ...JSON_TYPE, "content-encoding": "gzip" }],
    ] as const) {
      const answer = await update(body, headers);
      expect(answer.body, JSON.stringify(headers)).toEqual({
        status: 400,
        code: "bad_request",
        message: INVALID_JSON,
      });
      expect(answer.stored).toBe(before);
    }
    const chunked = await sendRaw(headersFor(0).replace("Content-Length: 0", "Transfer-Encoding: chunked"), [
      Buffer.concat([
        Buffer.from(`${invalid.length.toString(16)}\r\n`),
        invalid,
        Buffer.from("\r\n0\r\n\r\n"),
      ]),
    ]);
    expect(chunked).toMatch(/^HTTP\/1\.1 400 /);
    expect(await storedValue()).toBe(before);
  });

  it("refuses a charset it cannot decode with 415, writing nothing", async () => {
    const before = await storedValue();
    const answer = await update(JSON.stringify({ value: "latin", user: "alice" }), {
      "content-type": "application/json; charset=latin1",
    });
    expect(answer.body).toMatchObject({ status: 415, code: "unsupported_media_type" });
    expect(answer.stored).toBe(before);
  });

  it("reads a chunked body, which declares no length", async () => {
    const body = JSON.stringify({ value: "chunked", user: "alice" });
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(`${server.url}${variablePath()}`, {
        method: "PUT",
        headers: { ...JSON_TYPE, authorization: `Bearer ${appKey()}`, "transfer-encoding": "chunked" },
      });
      sent.on("response", (response) => resolve(response.resume().statusCode ?? 0)).on("error", reject);
      sent.write(body.slice(0, 10));
      sent.end(body.slice(10));
    });
    expect(status).toBe(200);
    expect(await storedValue()).toBe("chunked");
  });

  it("writes nothing for a body cut off before its declared length, and keeps serving", async () => {
    const before = await storedValue();
    // Whole JSON, but less than the length declared: the request ends with the connection.
    const body = Buffer.from(JSON.stringify({ value: "cut off", user: "alice" }));
    const answer = await sendRaw(headersFor(body.length + 10), [body], { thenClose: true });
    expect(answer).not.toMatch(/^HTTP\/1\.1 200 /);
    expect(await storedValue()).toBe(before);
    const after = await update(JSON.stringify({ value: "after", user: "alice" }), JSON_TYPE);
    expect(after.status).toBe(200);
    expect(after.stored).toBe("after");
  });

  it("takes the body a host app's own JSON parser has read, rather than wait for it", async () => {
    const serviceApi = createServiceApiRouter({ databaseUrl: server.databaseUrl });
    const host = express().use(express.json()).use("/v1", serviceApi);
    const listening = host.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    try {
      const { port } = listening.address() as { port: number };
      const response = await call(`http://127.0.0.1:${port}`, "PUT", variablePath(), {
        token: appKey(),
        body: { value: "parsed by the host", user: "alice" },
        checkContracts: false,
      });
      expect(response.status).toBe(200);
      expect(await storedValue()).toBe("parsed by the host");
    } finally {
      listening.close();
      await serviceApi.close();
    }
  }, 10_000);

  it("goes on in the async context the body was asked for in, when the body comes later", async () => {
    // A host's request-scoped context (a logger's, a tracer's) must survive the wait for the body.
    const context = new AsyncLocalStorage<string>();
    const app = express().put(
      "/",
      (_req, _res, next) => context.run("the request's", next),
      ...jsonBody,
      (req, res) => {
        res.json({ context: context.getStore() ?? null, body: req.body });
      },
    );
    const listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    try {
      const { port } = listening.address() as { port: number };
      const body = JSON.stringify({ late: true });
      const answer = await new Promise<string>((resolve, reject) => {
        const sent = request({ port, host: "127.0.0.1", method: "PUT", path: "/", headers: JSON_TYPE });
        sent.setHeader("content-length", Buffer.byteLength(body));
        sent.on("response", (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk)).on("end", () => resolve(text));
        });
        sent.on("error", reject);
        sent.flushHeaders();
        setTimeout(() => sent.end(body), 50);
      });
      expect(JSON.parse(answer)).toEqual({ context: "the request's", body: { late: true } });
    } finally {
      listening.close();
    }
  });

  it("reads a body that has all arrived before it is asked for, split characters and all", async () => {
    // A step before the body that waits (a key read from the store, say): Node has the whole body by then.
    const app = express().put(
      "/",
      (_req, _res, next) => void setTimeout(next, 150),
      ...jsonBody,
      (req, res) => {
        res.json(req.body);
      },
    );
    const listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    try {
      const { port } = listening.address() as { port: number };
      const body = Buffer.from(`\uFEFF${JSON.stringify({ value: "café crème" })}`);
      const split = body.indexOf(Buffer.from("é")) + 1;
      const socket = connect(port, "127.0.0.1");
      const received: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      const closed = new Promise((resolve) => socket.on("close", resolve));
      socket.write(
        `PUT / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.subarray(0, split));
      setTimeout(() => socket.write(body.subarray(split)), 50);
      await closed;
      const answer = Buffer.concat(received).toString();
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ value: "café crème" });
    } finally {
      listening.close();
    }
  });
});
