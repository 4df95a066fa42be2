import { openStore } from "@service-api/stores";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { startServer } from "../../src/server.js";

/** A new server on an existing database: what a restart sees. */
export async function restartOn(databaseUrl: string) {
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
  const running = await startServer(config, createLogger("silent"));
  const store = await openStore({ databaseUrl, pool: { max: 2 } });
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
