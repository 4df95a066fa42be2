import { openSqliteStore } from "@service-api/adapters-sqlite";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startServer } from "../../src/server.js";

/** A second server process-alike on an existing database file: what a restart sees. */
export async function restartOn(databasePath: string) {
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databasePath,
    LOG_LEVEL: "silent",
  });
  const running = await startServer(config, createLogger("silent"));
  const store = await openSqliteStore({ databaseUrl: databasePath });
  return {
    url: running.url,
    variable: (conversationId: string, variableId: string) =>
      store.repositories.conversations.findVariable(conversationId, variableId),
    async stop() {
      await running.close();
      await store.close();
    },
  };
}
