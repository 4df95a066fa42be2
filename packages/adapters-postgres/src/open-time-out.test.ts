import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import type { Store } from "@service-api/ports";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import { openedWithin } from "./open-time-out.js";

/** AuthenticationOk, then ReadyForQuery (idle): what PostgreSQL answers a trusted client's startup. */
const AUTHENTICATED = Buffer.from([...[0x52, 0, 0, 0, 8, 0, 0, 0, 0], ...[0x5a, 0, 0, 0, 5, 0x49]]);

/** A server that authenticates every connection, then answers nothing: a partition, a stalled proxy. */
async function silentAfterAuthenticating() {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on("error", () => {});
    socket.once("data", () => socket.write(AUTHENTICATED));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    databaseUrl: `postgres://kb@127.0.0.1:${port}/kb`,
    connections,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const sleep = (ms: number) => new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms));

describe("opening a PostgreSQL store that stops answering", () => {
  it("fails within pool.openTimeoutMs, its connections closed, instead of waiting for ever", async () => {
    const silent = await silentAfterAuthenticating();
    try {
      const started = performance.now();
      const outcome = await Promise.race([
        openPostgresStore({ databaseUrl: silent.databaseUrl, pool: { openTimeoutMs: 300 } }).then(
          (store) => store.close().then(() => "opened"),
          (error: Error) => error,
        ),
        sleep(5_000),
      ]);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toContain("did not open within 300 ms");
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(silent.connections.length).toBeGreaterThan(0);
      const closed = Promise.all(silent.connections.map((socket) => once(socket, "close")));
      expect(await Promise.race([closed.then(() => "closed"), sleep(2_000)])).toBe("closed");
    } finally {
      await silent.close();
    }
  });
});

describe("openedWithin", () => {
  const aStore = (closed: string[]) =>
    ({ close: async () => void closed.push("closed") }) as unknown as Store;

  it("gives up at the time-out, and closes the store should it open after", async () => {
    const closed: string[] = [];
    const gaveUp: string[] = [];
    let open!: (store: Store) => void;
    const opening = new Promise<Store>((resolve) => {
      open = resolve;
    });
    await expect(openedWithin(50, opening, () => gaveUp.push("gave up"))).rejects.toThrow(
      "did not open within 50 ms",
    );
    expect(gaveUp).toEqual(["gave up"]);
    open(aStore(closed));
    await sleep(0);
    expect(closed).toEqual(["closed"]);
  });

  it("hands over a store opened in time, and with 0 waits without a limit", async () => {
    const closed: string[] = [];
    const store = aStore(closed);
    expect(await openedWithin(1_000, Promise.resolve(store), () => {})).toBe(store);
    const late = sleep(100).then(() => store);
    expect(await openedWithin(0, late, () => {})).toBe(store);
    expect(closed).toEqual([]);
  });
});
