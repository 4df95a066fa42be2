import "reflect-metadata";
import type { AddressInfo } from "node:net";
import type { Store } from "@service-api/ports";
import express, { Router } from "express";
import { pino } from "pino";
import { container as root } from "tsyringe";
import { afterEach, describe, expect, it } from "vitest";
import { errorHandler } from "../src/http/error-handler.js";
import { READY_WITHIN_MS, registerHealthRoutes } from "../src/routes/health.js";
import { LIFECYCLE, STORE } from "../src/tokens.js";

const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The probes over a store whose ping never answers (a stalled network), on a server of their own. */
async function probesOverSilentStore() {
  const pings = { count: 0 };
  const store = { ping: () => new Promise<void>(() => pings.count++) } as unknown as Store;
  const container = root.createChildContainer();
  container.register(STORE, { useValue: store });
  container.register(LIFECYCLE, { useValue: { draining: false } as never });
  const router = Router();
  registerHealthRoutes(router, container);
  const app = express()
    .use(router)
    .use(errorHandler(pino({ level: "silent" })));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pings };
}

describe("readiness over a store that does not answer", () => {
  it("answers 503 within a second, every probe waiting for the same ping", async () => {
    const { url, pings } = await probesOverSilentStore();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${url}/readyz`)));
    const tookMs = performance.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503]);
    expect(await answers[0]!.json()).toEqual({
      status: 503,
      code: "service_unavailable",
      message: "The database does not answer.",
    });
    expect(tookMs).toBeGreaterThanOrEqual(READY_WITHIN_MS - 50);
    expect(tookMs).toBeLessThan(READY_WITHIN_MS + 2_000);
    expect(pings.count).toBe(1);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
