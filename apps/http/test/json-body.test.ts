import { request } from "node:http";
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe("JSON bodies", () => {
  it("reads a UTF-8 body, dropping a byte order mark as body-parser does", async () => {
    const answer = await update(
      `\uFEFF${JSON.stringify({ value: "with a mark", user: "alice" })}`,
      JSON_TYPE,
    );
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe("with a mark");
  });

  it("decodes multi-byte characters split across the body's chunks", async () => {
    // Nearly 1 MB of padding: Node hands the body over in many chunks, and "é" lands on a boundary somewhere.
    const value = "é".repeat(90_000);
    const body = `${JSON.stringify({ value, user: "alice" }).slice(0, -1)}${" ".repeat(800_000)}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const answer = await update(body, { "content-type": "application/json; charset=UTF-8" });
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe(value);
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
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `PUT ${variablePath()} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${appKey()}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"value": "cut off',
        );
        // The server has the start of the body when the connection ends.
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on("close", () => resolve()).on("error", reject);
    });
    expect(await storedValue()).toBe(before);
    const answer = await update(JSON.stringify({ value: "after", user: "alice" }), JSON_TYPE);
    expect(answer.status).toBe(200);
    expect(answer.stored).toBe("after");
  });
});
