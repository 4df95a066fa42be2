import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { openStore } from "@service-api/stores";
import type { Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import { createApp } from "./app.js";
import { type Config, publicHostOf } from "./config.js";
import { createContainer } from "./container.js";

export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  server: Server;
  container: DependencyContainer;
  /** Stops accepting, lets in-flight requests finish (up to the shutdown timeout), then closes the database. */
  close(): Promise<void>;
}

/** Opens the store `DATABASE_URL` names, applies migrations, and serves the API until `close()`. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    pool: config.pool,
    sqlite: config.sqlite,
  });
  const container = createContainer(config, store, logger);
  const app = createApp(container);
  const server = createServer(app);
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = publicHostOf(config.host);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= shutDown(server, config.shutdownTimeoutMs).then(() => store.close());
    return closing;
  };
  return { url: `http://${host}:${port}`, server, container, close };
}

async function shutDown(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}
