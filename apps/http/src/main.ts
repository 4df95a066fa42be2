#!/usr/bin/env node
import cluster from "node:cluster";
import { storeKindOf } from "@service-api/stores";
import { runPrimary } from "./cluster.js";
import { ConfigError, loadConfig } from "./config.js";
import { DEMO_SKIPPED, demoBanner, loadDemoKeys } from "./demo-mode.js";
import { onStopSignals } from "./lifecycle/stop-signals.js";
import { createLogger } from "./logger.js";
import { startServer } from "./server.js";
import { heedPrimaryStops } from "./worker-stops.js";

/** The standalone server: configured from the environment, stopped by SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const noDemo = process.argv.includes("--no-demo");
  const config = loadConfig(noDemo ? { ...process.env, DEMO: "off" } : process.env);
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const onPrimaryStop = cluster.isWorker ? heedPrimaryStops() : undefined;
  const running = await startServer(config, logger);

  let stopping = false;
  /** Drains and stops; asked again (`mayEndDrain`), ends the drain. */
  const stop = (signal: string, mayEndDrain = true) => {
    if (stopping) {
      if (!mayEndDrain) return;
      logger.info({ signal }, "ending the drain");
      running.skipDrain();
      return;
    }
    stopping = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, "shutting down");
    // Logs are written asynchronously: flush them before the process ends.
    const exit = (code: number) => logger.flush(() => process.exit(code));
    running.close().then(
      () => {
        logger.info("stopped");
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        exit(1);
      },
    );
  };
  // A worker of WORKERS hears its primary (`stopWorker`), and a signal sent to the whole process
  // group (systemd, `kill -- -<pgid>`, Ctrl-C) besides: only the primary's word ends its drain.
  const fromOutside = !cluster.isWorker;
  onStopSignals((signal) => stop(signal, fromOutside));
  onPrimaryStop?.(stop);

  logger.info(
    { url: running.url, database: storeKindOf(config.databaseUrl), demo: config.demo },
    "listening",
  );
  if (running.metricsUrl) logger.info({ url: running.metricsUrl }, "metrics listening");
  if (!config.demo) return;
  const keys = await loadDemoKeys(running.container);
  if (keys) process.stderr.write(demoBanner(running.url, keys));
  else logger.warn(DEMO_SKIPPED);
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `Could not start: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
