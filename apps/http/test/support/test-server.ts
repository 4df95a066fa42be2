import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { openSqliteStore } from "@service-api/adapters-sqlite";
import type { Store } from "@service-api/ports";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type RunningServer, startServer } from "../../src/server.js";

export interface TestServer {
  url: string;
  running: RunningServer;
  /** A second connection to the server's database file, for seeding and checking. */
  store: Store;
  databasePath: string;
  /** Every JSON log line the server wrote. */
  logs: Record<string, unknown>[];
  /** Raw log output, to check that nothing secret is in it. */
  logText: () => string;
  stop(): Promise<void>;
}

/** The real server on an ephemeral port over a fresh SQLite file, as production runs it. */
export async function startTestServer(environment: Record<string, string> = {}): Promise<TestServer> {
  const directory = mkdtempSync(join(tmpdir(), "service-api-http-"));
  const databasePath = join(directory, "service-api.sqlite");
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${databasePath}`,
    LOG_LEVEL: "info",
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
  const store = await openSqliteStore({ databaseUrl: databasePath });
  const logText = () => chunks.join("");
  return {
    url: running.url,
    running,
    store,
    databasePath,
    get logs() {
      return logText()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText,
    async stop() {
      await running.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
