import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep } from "./support/load.js";
import { RawConnection } from "./support/raw-http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
beforeAll(async () => {
  server = await startTestServer({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000" });
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const jsonOf = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("requests Node's own parser refuses", () => {
  it("answers headers over the size limit 431 in the error shape, and closes", async () => {
    const connection = new RawConnection(server.url);
    const response = await connection.request("GET", "/v1/site", { "X-Padding": "x".repeat(20_000) });
    expect(response.status).toBe(431);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(jsonOf(response.body)).toEqual({
      status: 431,
      code: "request_header_fields_too_large",
      message: "The request's headers are too large.",
    });
    expect(await connection.closed).toEqual({ reset: false });
  });

  it("answers a bad request line 400 in the error shape", async () => {
    const connection = new RawConnection(server.url);
    connection.write("NOT A REQUEST\r\n\r\n");
    const response = await connection.next();
    expect(response.status).toBe(400);
    expect(jsonOf(response.body)).toEqual({
      status: 400,
      code: "bad_request",
      message: "The request is not valid HTTP.",
    });
  });

  it("answers an Expect header other than 100-continue 417 in the error shape, writing nothing", async () => {
    const before = await server.store.repositories.tags.listInWorkspace(world.workspace.id);
    const connection = new RawConnection(server.url);
    const body = JSON.stringify({ name: "expected" });
    const response = await connection.request(
      "POST",
      "/v1/datasets/tags",
      {
        Authorization: `Bearer ${world.datasetKey}`,
        "Content-Type": "application/json",
        Expect: "something-else",
      },
      body,
    );
    expect(response.status).toBe(417);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(jsonOf(response.body)).toEqual({
      status: 417,
      code: "expectation_failed",
      message: "The server cannot meet the request's Expect header; only 100-continue is supported.",
    });
    connection.close();
    expect(await server.store.repositories.tags.listInWorkspace(world.workspace.id)).toEqual(before);
  });

  it("answers a body declared over 1 MB 413 before it arrives, without asking for it, and closes", async () => {
    const connection = new RawConnection(server.url);
    connection.write(
      "POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${world.datasetKey}\r\nContent-Type: application/json\r\n` +
        "Content-Length: 5000000\r\nExpect: 100-continue\r\n\r\n",
    );
    // No 100 Continue first: the client would upload 5 MB to be refused.
    const response = await connection.next();
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(jsonOf(response.body)).toEqual({
      status: 413,
      code: "request_entity_too_large",
      message: "The data value transmitted exceeds the capacity limit (1 MB).",
    });
    // The body the connection still owes was never sent: it closes, cleanly.
    expect(await connection.closed).toEqual({ reset: false });
  });

  it("asks for a body within the limit with 100 Continue, then answers the request", async () => {
    const connection = new RawConnection(server.url);
    const body = JSON.stringify({ name: "continued" });
    connection.write(
      "POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${world.datasetKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect((await connection.next()).status).toBe(100);
    connection.write(body);
    const response = await connection.next();
    expect(response.status).toBe(200);
    expect(jsonOf(response.body)).toMatchObject({ name: "continued" });
    expect((await connection.request("GET", "/healthz")).status).toBe(200);
    connection.close();
  });

  it("answers 413 to a client already sending a body over 1 MB, reads the rest, then closes cleanly", async () => {
    const connection = new RawConnection(server.url);
    const body = " ".repeat(3 * 1024 * 1024);
    connection.write(
      "POST /v1/datasets/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${world.datasetKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    const response = await connection.next();
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(jsonOf(response.body)).toMatchObject({ status: 413, code: "request_entity_too_large" });
    // The rest of the body was read and dropped, not cut off by a close that resets a sender.
    expect(await connection.closed).toEqual({ reset: false });
  });

  it("keeps the connection after an answer that read the whole body", async () => {
    const connection = new RawConnection(server.url);
    const response = await connection.request(
      "POST",
      "/v1/datasets/tags",
      { Authorization: `Bearer ${world.datasetKey}`, "Content-Type": "application/json" },
      "{not json",
    );
    expect(response.status).toBe(400);
    expect(response.headers.connection).not.toBe("close");
    expect((await connection.request("GET", "/healthz")).status).toBe(200);
    connection.close();
  });

  it("answers CONNECT 405 in the error shape, and closes", async () => {
    const connection = new RawConnection(server.url);
    connection.write("CONNECT /v1/site HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const response = await connection.next();
    expect(response.status).toBe(405);
    expect(jsonOf(response.body)).toEqual({
      status: 405,
      code: "method_not_allowed",
      message: "The method is not allowed for the requested URL.",
    });
    expect(await connection.closed).toEqual({ reset: false });
  });

  it("survives CONNECT clients that reset the connection, at any moment", async () => {
    const { hostname, port } = new URL(server.url);
    for (const pauseMs of [0, 0, 1, 2, 5, 10, 20, 50]) {
      const socket = connect(Number(port), hostname);
      socket.on("error", () => {});
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write("CONNECT /v1/site HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await sleep(pauseMs);
      socket.resetAndDestroy();
    }
    await sleep(100);
    const connection = new RawConnection(server.url);
    expect((await connection.request("GET", "/healthz")).status).toBe(200);
    connection.close();
  });

  it("answers a request without Host 400 in the error shape, and the next one as usual", async () => {
    const connection = new RawConnection(server.url);
    connection.write("GET /healthz HTTP/1.1\r\n\r\n");
    const response = await connection.next();
    expect(response.status).toBe(400);
    expect(jsonOf(response.body)).toMatchObject({
      code: "bad_request",
      message: "The request has no Host header.",
    });
    expect((await connection.request("GET", "/healthz")).status).toBe(200);
    connection.close();
  });

  it("answers 408 in the error shape to a client too slow to send its headers", async () => {
    const connection = new RawConnection(server.url);
    const started = Date.now();
    connection.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const dribble = setInterval(() => connection.write("X"), 200);
    try {
      const response = await connection.next();
      expect(response.status).toBe(408);
      expect(jsonOf(response.body)).toEqual({
        status: 408,
        code: "request_timeout",
        message: "The request was not received in time.",
      });
    } finally {
      clearInterval(dribble);
    }
    await connection.closed;
    // HEADERS_TIMEOUT_MS is 1 s; the time-outs are checked every second.
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it("does not let many slow clients hold their connections past the time-outs", async () => {
    const connections = Array.from({ length: 100 }, () => new RawConnection(server.url));
    for (const connection of connections) connection.write("PUT /v1/site HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const dribble = setInterval(() => {
      for (const connection of connections) if (!connection.socket.destroyed) connection.write("Y");
    }, 300);
    const started = Date.now();
    try {
      await Promise.all(connections.map((connection) => connection.closed));
    } finally {
      clearInterval(dribble);
    }
    expect(Date.now() - started).toBeLessThan(3_500);
    // The server still answers.
    const probe = new RawConnection(server.url);
    expect((await probe.request("GET", "/healthz")).status).toBe(200);
    probe.close();
  });

  it("closes a request whose body never completes after REQUEST_TIMEOUT_MS", async () => {
    const connection = new RawConnection(server.url);
    const path = `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`;
    connection.write(
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.apps.chat.key}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    const started = Date.now();
    await sleep(100);
    const response = await connection.next();
    await connection.closed;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(response.status).toBe(408);
    expect(jsonOf(response.body)).toMatchObject({ code: "request_timeout" });
    // Logged (and counted) as what the client got, not as a client that went away (499).
    await sleep(50);
    const logged = server
      .logText()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"') && line.includes('"method":"PUT"'))
      .map((line) => jsonOf(line).status);
    expect(logged).toEqual([408]);
  });
});
