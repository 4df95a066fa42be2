import cluster, { type Worker } from "node:cluster";
import type { DemoKeys } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { createContainer } from "./container.js";
import { DEMO_SKIPPED, demoBanner, loadDemoKeys } from "./demo-mode.js";
import { onStopSignals } from "./lifecycle/stop-signals.js";
import { ClusterMetrics } from "./observability/cluster-metrics.js";
import { type MetricsServer, startMetricsServer } from "./observability/metrics-server.js";
import { stopWorker } from "./worker-stops.js";

/**
 * The primary of `WORKERS` > 1: migrates (and loads the demo) once, then forks the workers, which
 * share the port, and stops them all on SIGTERM or SIGINT. A worker that dies is replaced.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    filesDir: config.filesDir,
    pool: config.pool,
    postgres: config.postgres,
    sqlite: config.sqlite,
  });
  let demoKeys: DemoKeys | undefined;
  try {
    demoKeys = config.demo ? await loadDemoKeys(createContainer(config, store, logger)) : undefined;
    if (config.demo && !demoKeys) logger.warn(DEMO_SKIPPED);
  } finally {
    await store.close();
  }

  // Before the first fork, so that no worker's first message is missed.
  const clusterMetrics = config.metrics ? new ClusterMetrics(cluster) : undefined;
  let metricsServer: MetricsServer | undefined;
  let stopping = false;
  const fork = (): Worker => cluster.fork({ DEMO: "off", WORKERS: "1" });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    logger.error({ workerPid: worker.process.pid, code, signal }, "worker exited; starting another");
    fork();
  });
  let announced = false;
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    // Metrics are served once every worker answers for its own, so no scrape waits on a worker booting.
    listening += 1;
    if (config.metrics && clusterMetrics && listening === config.workers) {
      serveClusterMetrics(config.metrics, clusterMetrics, logger).then(
        (server) => {
          metricsServer = server;
        },
        (error: unknown) => logger.error({ err: error }, "metrics could not listen"),
      );
    }
    if (announced) return;
    announced = true;
    const host =
      address.address === "0.0.0.0" || address.address === "::" || !address.address
        ? "localhost"
        : address.address;
    const url = `http://${host}:${address.port}`;
    logger.info({ url, workers: config.workers }, "listening");
    if (demoKeys) process.stderr.write(demoBanner(url, demoKeys));
  });
  for (let index = 0; index < config.workers; index++) fork();

  const workers = () =>
    Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  // Each worker drains and stops on its own; a second signal, passed on, ends their drains.
  const stop = (signal: string) => {
    if (stopping) {
      logger.info({ signal }, "ending the drain");
      for (const worker of workers()) stopWorker(worker, signal, true);
      return;
    }
    stopping = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, "shutting down");
    let running = workers().length;
    const done = () => {
      void metricsServer?.close();
      logger.flush(() => process.exit(0));
    };
    if (running === 0) done();
    for (const worker of workers()) {
      worker.once("exit", () => {
        running -= 1;
        if (running === 0) {
          logger.info("stopped");
          done();
        }
      });
      stopWorker(worker, signal, false);
    }
  };
  onStopSignals(stop);
}

/**
 * Every worker's metrics on one listener, summed (the store outage gauge and the file descriptor
 * limit: the highest); counters keep what dead workers had counted, so none goes down.
 */
async function serveClusterMetrics(
  { port, host }: { port: number; host: string },
  metrics: ClusterMetrics,
  logger: Logger,
): Promise<MetricsServer> {
  const server = await startMetricsServer(
    port,
    host,
    async () => ({ contentType: metrics.contentType, body: await metrics.scrape() }),
    (error) => logger.error({ err: error }, "metrics scrape failed"),
  );
  logger.info({ url: server.url }, "metrics listening");
  return server;
}
