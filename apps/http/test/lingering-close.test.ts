import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINGER } from "../src/http/lingering-close.js";
import { sleep } from "./support/load.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * Clients that write their whole request before they read a byte of the answer (as many do): a
 * server that refuses the request and closes under them at once resets the connection, and the
 * client sees `EPIPE` instead of the answer. These tests send such requests through the real
 * server and count every answer that was not read whole, and every write that failed.
 */

let server: TestServer;
let world: SeededWorkspace;
beforeAll(async () => {
  server = await startTestServer({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000" });
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const MB = 1024 * 1024;
const TOO_LARGE = {
  status: 413,
  code: "request_entity_too_large",
  message: "The data value transmitted exceeds the capacity limit (1 MB).",
};

interface Sent {
  /** What the server answered, as read after the whole request was written. */
  answer: string;
  /** The error a write or the connection met (`EPIPE`, `ECONNRESET`), if any. */
  error: string | undefined;
}

interface Upload {
  head: string;
  bodyBytes: number;
  /** Bytes per write, and the pause after each (0: as fast as the connection takes them). */
  chunkBytes: number;
  pauseMs: number;
  /** A request answered on the connection first, so that this one is its second. */
  reuse: boolean;
}

const CHUNK = Buffer.alloc(256 * 1024, " ");

function open(): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  // Half-open allowed: the client goes on writing after the server's side has ended, as curl does.
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  return new Promise((resolve) => socket.once("connect", () => resolve(socket)));
}

/** Writes, waiting for room when the connection's buffer is full; a failed write rejects. */
function write(socket: Socket, bytes: Buffer | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const flushed = socket.write(bytes, (error) => (error ? reject(error) : undefined));
    if (flushed) resolve();
    else socket.once("drain", resolve);
  });
}

/** A response read whole from `received` (by its Content-Length), and what follows it. */
function firstResponse(received: string): { response: string; rest: string } | undefined {
  const end = received.indexOf("\r\n\r\n");
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.slice(0, end))?.[1] ?? NaN);
  if (end < 0 || !(received.length >= end + 4 + length)) return undefined;
  return { response: received.slice(0, end + 4 + length), rest: received.slice(end + 4 + length) };
}

/** Sends the request whole, and only then looks at what came back; resolves when the server closes. */
async function send({ head, bodyBytes, chunkBytes, pauseMs, reuse }: Upload): Promise<Sent> {
  const socket = await open();
  let received = "";
  let error: string | undefined;
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", (failure: NodeJS.ErrnoException) => {
    error ??= failure.code ?? failure.message;
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  if (reuse) {
    await write(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    while (!firstResponse(received)) await sleep(2);
    received = firstResponse(received)!.rest;
  }
  try {
    await write(socket, head);
    for (let sent = 0; sent < bodyBytes; sent += chunkBytes) {
      await write(socket, CHUNK.subarray(0, Math.min(chunkBytes, bodyBytes - sent)));
      if (pauseMs > 0) await sleep(pauseMs);
    }
    socket.end();
  } catch (failure) {
    error ??= (failure as NodeJS.ErrnoException).code ?? String(failure);
    socket.destroy();
  }
  await closed;
  return { answer: received, error };
}

const tagCreate = (bodyBytes: number, closeAfter: boolean) =>
  `POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.datasetKey}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n` +
  `${closeAfter ? "Connection: close\r\n" : ""}\r\n`;

/** The status line and the JSON body of an answer, or what was read instead. */
function answerOf(sent: Sent): { status: string; body: unknown; error: string | undefined } {
  const parsed = firstResponse(sent.answer);
  if (!parsed)
    return {
      status: `none (read ${JSON.stringify(sent.answer.slice(0, 80))})`,
      body: undefined,
      error: sent.error,
    };
  const { response } = parsed;
  const body = response.slice(response.indexOf("\r\n\r\n") + 4);
  return { status: response.slice(0, response.indexOf("\r\n")), body: JSON.parse(body), error: sent.error };
}

/** The largest of the process's heap and buffer memory while `work` runs, above where it began. */
async function peakMemoryDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakBytes: number }> {
  const used = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const start = used();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
  }, 20);
  try {
    const result = await work();
    return { result, peakBytes: peak - start };
  } finally {
    clearInterval(sampler);
  }
}

const REPEATS = 20;
const SPEEDS = [
  { name: "at full speed", chunkBytes: CHUNK.length, pauseMs: 0 },
  { name: "slowly", chunkBytes: 16 * 1024, pauseMs: 2 },
];
const CONNECTIONS = [
  { name: "on a kept-alive connection", reuse: true, closeAfter: false },
  { name: "on a fresh connection that asks to close", reuse: false, closeAfter: true },
];

describe("a body over the limit, sent by a client that reads only after writing it all", () => {
  for (const megabytes of [1.1, 2, 16, 64]) {
    for (const speed of SPEEDS) {
      for (const connection of CONNECTIONS) {
        it(`answers every one of ${REPEATS} ${megabytes} MB bodies sent ${speed.name} ${connection.name} 413, read whole, in bounded memory`, async () => {
          const bodyBytes = Math.round(megabytes * MB);
          const { result, peakBytes } = await peakMemoryDuring(() =>
            Promise.all(
              Array.from({ length: REPEATS }, () =>
                send({
                  head: tagCreate(bodyBytes, connection.closeAfter),
                  bodyBytes,
                  chunkBytes: speed.chunkBytes,
                  pauseMs: speed.pauseMs,
                  reuse: connection.reuse,
                }),
              ),
            ),
          );
          for (const sent of result) {
            expect(answerOf(sent)).toEqual({
              status: "HTTP/1.1 413 Payload Too Large",
              body: TOO_LARGE,
              error: undefined,
            });
          }
          // What arrived was dropped as it came, not kept (a quarter of it at most, with garbage).
          expect(peakBytes).toBeLessThan(Math.max(128 * MB, (REPEATS * bodyBytes) / 4));
          expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        }, 120_000);
      }
    }
  }

  it("leaves the tags as they were", async () => {
    const tags = await server.store.repositories.tags.listInWorkspace(world.workspace.id);
    expect(tags.map((tag) => tag.name).sort()).toEqual(["bots", "finance", "legal"]);
  });
});

describe("other refusals while the client is still sending", () => {
  it("answers headers over the size limit 431 to clients that go on sending a body, each read whole", async () => {
    const head =
      `POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"x".repeat(20_000)}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${16 * MB}\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: REPEATS }, () =>
        send({ head, bodyBytes: 16 * MB, chunkBytes: CHUNK.length, pauseMs: 0, reuse: false }),
      ),
    );
    for (const sent of results) {
      expect(answerOf(sent)).toEqual({
        status: "HTTP/1.1 431 Request Header Fields Too Large",
        body: {
          status: 431,
          code: "request_header_fields_too_large",
          message: "The request's headers are too large.",
        },
        error: undefined,
      });
    }
  }, 60_000);

  it("answers a body too slow for the request time-out 408, read whole, and acts on none of it", async () => {
    const variablePath = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    const body = JSON.stringify({ value: `late${" ".repeat(40 * 1024)}`, user: "alice" });
    const head =
      `PUT ${variablePath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.apps["advanced-chat"].key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    // 1 kB every 100 ms: about 4 s for the body, past the 2 s the request may take.
    const socket = await open();
    let received = "";
    let error: string | undefined;
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", (failure: NodeJS.ErrnoException) => {
      error ??= failure.code;
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await write(socket, head);
    for (let at = 0; at < body.length; at += 1024) {
      await write(socket, body.slice(at, at + 1024));
      await sleep(100);
    }
    socket.end();
    await closed;
    expect(answerOf({ answer: received, error })).toEqual({
      status: "HTTP/1.1 408 Request Timeout",
      body: { status: 408, code: "request_timeout", message: "The request was not received in time." },
      error: undefined,
    });
    // The body did arrive, whole, during the close: the refused request still changed nothing.
    await sleep(200);
    const stored = await server.store.repositories.conversations.findVariable(
      world.conversation.id,
      world.variable.id,
    );
    expect(stored?.value).toBe(world.variable.value);
  }, 30_000);

  it("serves no request that finishes arriving on a connection it already refused", async () => {
    // Headers too slow (past 1 s): 408; then the rest of a whole request arrives on that connection.
    const socket = await open();
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await write(socket, "POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await sleep(2_200);
    const body = JSON.stringify({ name: "arrived late" });
    await write(
      socket,
      `Authorization: Bearer ${world.datasetKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    await sleep(300);
    socket.end();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const tags = await server.store.repositories.tags.listInWorkspace(world.workspace.id);
    expect(tags.map((tag) => tag.name)).not.toContain("arrived late");
  }, 30_000);

  it("closes a refused connection whose client sends nothing more, and never answers twice", async () => {
    const before = await openConnections();
    const socket = await open();
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    const start = performance.now();
    // Declared 5 MB, sends 1 MB, then neither sends nor closes: the linger ends it after its idle bound.
    await write(socket, tagCreate(5 * MB, false));
    await write(socket, Buffer.alloc(MB, " "));
    await new Promise((resolve) => socket.once("end", resolve));
    expect(await openConnections()).toBe(before + 1);
    while ((await openConnections()) > before) await sleep(50);
    const closedAfter = performance.now() - start;
    expect(closedAfter).toBeGreaterThanOrEqual(LINGER.idleMs - 500);
    expect(closedAfter).toBeLessThan(LINGER.idleMs + 3_000);
    expect(received.match(/HTTP\/1\.1 /g)).toEqual(["HTTP/1.1 "]);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    socket.destroy();
  }, 30_000);
});

describe("what a refused connection still receives", () => {
  it("closes at once a connection whose client sends further requests after its refusal", async () => {
    const before = await openConnections();
    const socket = await open();
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => {});
    // Refused for its declared size, then pipelined GETs (each would make objects if parsed), and
    // then nothing: the client neither sends nor closes.
    await write(socket, tagCreate(2 * MB, false));
    await write(socket, Buffer.alloc(2 * MB, " "));
    const sentAt = performance.now();
    await write(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".repeat(20_000)).catch(() => {});
    // Closed by the server at its first request, not after the linger's idle bound.
    while ((await openConnections()) > before) await sleep(20);
    expect(performance.now() - sentAt).toBeLessThan(LINGER.idleMs / 2);
    expect(received.match(/HTTP\/1\.1 /g)).toEqual(["HTTP/1.1 "]);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    socket.destroy();
  }, 30_000);

  it("answers an Expect it cannot meet 417 to a client that sends its body anyway, read whole", async () => {
    const head =
      `POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Expect: something-else\r\nContent-Length: ${16 * MB}\r\n\r\n`;
    const sent = await send({ head, bodyBytes: 16 * MB, chunkBytes: CHUNK.length, pauseMs: 0, reuse: false });
    expect(answerOf(sent)).toMatchObject({ status: "HTTP/1.1 417 Expectation Failed", error: undefined });
  }, 30_000);

  it("keeps the connection after refusing a small body it had not read yet", async () => {
    const socket = await open();
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    const body = JSON.stringify({ name: "late" });
    await write(
      socket,
      `POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ds-not-a-key-at-all\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    while (!firstResponse(received)) await sleep(5);
    const refusal = firstResponse(received)!;
    expect(refusal.response).toMatch(/^HTTP\/1\.1 401 /);
    expect(refusal.response).not.toMatch(/\r\nconnection: close/i);
    await write(socket, body);
    received = refusal.rest;
    await write(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    while (!firstResponse(received)) await sleep(5);
    expect(firstResponse(received)!.response).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});

/** The connections the server holds open. */
const openConnections = () =>
  new Promise<number>((resolve, reject) =>
    server.running.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

describe("a shutdown with connections still lingering", () => {
  it("closes a refused CONNECT whose client goes on sending, at the shutdown's time-out", async () => {
    const own = await startTestServer({ SHUTDOWN_DRAIN_MS: "0", SHUTDOWN_TIMEOUT_MS: "1000" });
    const { hostname, port } = new URL(own.url);
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("CONNECT /v1/site HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const trickle = setInterval(() => socket.write("x"), 100);
    try {
      await sleep(300);
      const started = performance.now();
      await own.stop();
      // Drain 0 s + time-out 1 s, not the linger's 30 s.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 40_000);
});
