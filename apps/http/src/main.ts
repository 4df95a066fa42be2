import { ConfigError, loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { startServer } from "./server.js";

/** The standalone server: configured from the environment, stopped by SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  logger.info(
    { url: running.url, database: config.databaseUrl.startsWith("postgres") ? "postgres" : "sqlite" },
    "listening",
  );

  const stop = (signal: string) => {
    logger.info({ signal }, "shutting down");
    running.close().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `Could not start: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
