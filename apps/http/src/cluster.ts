import cluster, { type Worker } from "node:cluster";
import type { DemoKeys } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import { createContainer } from "./container.js";
import { DEMO_SKIPPED, demoBanner, loadDemoKeys } from "./demo-mode.js";
import { ClusterMetrics } from "./observability/cluster-metrics.js";
import { type MetricsServer, startMetricsServer } from "./observability/metrics-server.js";

/**
 * The primary of `WORKERS` > 1: migrates (and loads the demo) once, then forks the workers, which
 * share the port, and stops them all on SIGTERM or SIGINT. A worker that dies is replaced.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
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
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** The primary's word to its workers: drain and stop, or end the drain. */
const STOP = "service-api:stop";
interface StopMessage {
  type: typeof STOP;
  signal: string;
  endDrain: boolean;
}

/**
 * Tells a worker to drain and stop (`endDrain`: to end its drain), by message rather than a signal:
 * a signal sent to the whole process group reaches the worker too, and two signals would end its
 * drain at once. A worker the message cannot reach is signalled.
 */
function stopWorker(worker: Worker, signal: string, endDrain: boolean): void {
  const message: StopMessage = { type: STOP, signal, endDrain };
  if (!worker.isConnected()) {
    worker.process.kill("SIGTERM");
    return;
  }
  worker.send(message, (error: Error | null) => {
    if (error) worker.process.kill("SIGTERM");
  });
}

type StopHandler = (signal: string, endDrain: boolean) => void;

/**
 * In a worker, before it starts serving: hears the primary's word from now on (it may come while
 * the worker starts) and returns how to hand it to `stop` once the worker serves, what was heard
 * before included.
 */
export function heedPrimaryStops(): (stop: StopHandler) => void {
  const heard: StopMessage[] = [];
  let handler: StopHandler | undefined;
  process.on("message", (message: unknown) => {
    const word = message as Partial<StopMessage> | null;
    if (typeof word !== "object" || word?.type !== STOP) return;
    const stop = { type: STOP, signal: String(word.signal), endDrain: word.endDrain === true } as const;
    if (handler) handler(stop.signal, stop.endDrain);
    else heard.push(stop);
  });
  return (stop) => {
    handler = stop;
    for (const { signal, endDrain } of heard.splice(0)) stop(signal, endDrain);
  };
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
