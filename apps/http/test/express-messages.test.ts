import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("requests and responses", () => {
  it("arrive with the prototypes Express gives them, so Express has none to set", async () => {
    const seen: { arrived: object | null; handled: () => object | null }[] = [];
    const note = (message: IncomingMessage | ServerResponse) => ({
      arrived: Object.getPrototypeOf(message),
      handled: () => Object.getPrototypeOf(message),
    });
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(note(req), note(res));
    };
    // Before the app's own listener: what the server built, before Express touched it.
    server.running.server.prependListener("request", listener);
    try {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      server.running.server.off("request", listener);
    }
    expect(seen).toHaveLength(2);
    for (const { arrived, handled } of seen) {
      // Express's own request and response methods are on the prototype from the start.
      expect(arrived).toHaveProperty("get");
      expect(handled()).toBe(arrived);
    }
  });
});
