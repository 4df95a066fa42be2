import { Writable } from "node:stream";
import type { Store } from "@service-api/ports";
import { openStore } from "@service-api/stores";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { createTestDatabaseUrl } from "./test-database.js";

export interface TestServer {
  url: string;
  running: RunningServer;
  /** A second connection to the server's database, for seeding and checking. */
  store: Store;
  databaseUrl: string;
  /** Every JSON log line the server wrote. */
  logs: Record<string, unknown>[];
  /** Raw log output, to check that nothing secret is in it. */
  logText: () => string;
  stop(): Promise<void>;
}

/** The real server on an ephemeral port over a fresh database of the store under test. */
export async function startTestServer(environment: Record<string, string> = {}): Promise<TestServer> {
  const database = await createTestDatabaseUrl();
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: database.databaseUrl,
    DATABASE_POOL_MAX: "4",
    LOG_LEVEL: "info",
    // Tests that stop a server do not wait for a load balancer; the drain has tests of its own.
    SHUTDOWN_DRAIN_MS: "0",
    ...environment,
  });
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const running = await startServer(config, createLogger(config.logLevel, sink));
  const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 4 } });
  const logText = () => chunks.join("");
  return {
    url: running.url,
    running,
    store,
    databaseUrl: database.databaseUrl,
    get logs() {
      return logText()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText,
    async stop() {
      // Tests stop without waiting for their own idle keep-alive connections to time out.
      const closing = running.close();
      running.server.closeIdleConnections();
      await closing;
      await store.close();
      await database.drop();
    },
  };
}
