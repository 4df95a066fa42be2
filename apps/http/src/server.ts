import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_TIMER_MS, openStore } from "@service-api/stores";
import type { Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import { createApp } from "./app.js";
import { DEFAULT_JOB_WORKERS, JobWorkers } from "./background/job-workers.js";
import { type Config, publicHostOf } from "./config.js";
import { createContainer } from "./container.js";
import {
  answerClientErrors,
  answerExpectationFailed,
  bodyLimitOf,
  continueWithinLimit,
  refuseConnect,
} from "./http/client-errors.js";
import { expressMessages } from "./http/express-messages.js";
import { closeLingeringly, unlessLingering } from "./http/lingering-close.js";
import { ServerLifecycle } from "./lifecycle/server-lifecycle.js";
import { Shutdown } from "./lifecycle/shut-down.js";
import { answerPrimary } from "./observability/cluster-metrics.js";
import { ServerMetrics } from "./observability/metrics.js";
import { type MetricsServer, startMetricsServer } from "./observability/metrics-server.js";
import { StoreOutage } from "./observability/store-outage.js";
import { createRateLimits } from "./rate-limits/rate-limits.js";
import { AUTHENTICATE_API_KEY, CLOCK, ID_GENERATOR, JOB_SIGNAL, METRICS } from "./tokens.js";

export interface RunningServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /** Where metrics are served, when `METRICS_PORT` is set (and this is not a cluster worker). */
  metricsUrl: string | undefined;
  server: Server;
  container: DependencyContainer;
  /**
   * Shuts down without losing a request: drains for `shutdownDrainMs`, stops accepting, lets open
   * connections finish (up to `shutdownTimeoutMs`), then closes the database. Idempotent.
   */
  close(): Promise<void>;
  /** Ends a drain under way at once (a second SIGTERM or SIGINT). */
  skipDrain(): void;
}

/** How often Node checks connections against the header and request time-outs (its default: 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** How long an idle keep-alive connection is kept. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Opens the store `DATABASE_URL` names, applies migrations, and serves the API until `close()`. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const outage = new StoreOutage(logger);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    filesDir: config.filesDir,
    pool: config.pool,
    postgres: config.postgres,
    sqlite: config.sqlite,
    monitor: outage,
  });
  const lifecycle = new ServerLifecycle();
  let metrics: ServerMetrics | undefined;
  const rateLimits = createRateLimits(config.rateLimits, store.repositories.rateLimits, logger, (limit) =>
    metrics?.rateLimited(limit),
  );
  const container = createContainer(config, store, logger, { outage, lifecycle, rateLimits });
  if (config.metrics) {
    metrics = new ServerMetrics({ store, outage, authenticate: container.resolve(AUTHENTICATE_API_KEY) });
    container.register(METRICS, { useValue: metrics });
    // A worker answers the primary's requests for its metrics before it takes any request.
    if (cluster.isWorker) answerPrimary(metrics.registry);
  }
  const app = createApp(container);
  const server = createServer(
    {
      ...expressMessages(app),
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // Express answers a request without Host, in the API's error shape.
      requireHostHeader: false,
    },
    unlessLingering(app),
  );
  server.on(
    "clientError",
    answerClientErrors(({ status, code }) => {
      metrics?.refusedUnparsed(status);
      logger.info({ status, code }, "request refused");
    }),
  );
  closeLingeringly(server);
  server.on("checkExpectation", answerExpectationFailed);
  server.on("checkContinue", continueWithinLimit(server, bodyLimitOf(config.uploadLimitBytes)));
  server.on("connect", refuseConnect);
  const shutdown = new Shutdown(server, lifecycle, {
    drainMs: config.shutdownDrainMs,
    timeoutMs: config.shutdownTimeoutMs,
  });
  let metricsServer: MetricsServer | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => resolve());
    });
    if (metrics && !cluster.isWorker) metricsServer = await serveMetrics(config, metrics, logger);
  } catch (error) {
    server.close();
    await rateLimits.close();
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const workers = new JobWorkers(
    store,
    container.resolve(CLOCK),
    container.resolve(ID_GENERATOR),
    logger,
    {
      ...DEFAULT_JOB_WORKERS,
      count: config.backgroundWorkers,
      leaseMs: config.jobLeaseMs,
      maxFileBytes: config.uploadLimitBytes,
    },
    container.resolve(JOB_SIGNAL),
  );
  workers.start();
  let closing: Promise<void> | undefined;
  return {
    url: `http://${publicHostOf(config.host)}:${port}`,
    metricsUrl: metricsServer?.url,
    server,
    container,
    close: () => {
      // The drain, then the time-out for open connections: the grace an operator sizes for us.
      // What still waits for the database (a partition: connects and statements that never answer)
      // is left to end with the process.
      if (closing) return closing;
      const deadline = performance.now() + config.shutdownDrainMs + config.shutdownTimeoutMs;
      closing = shutdown.run().then(() =>
        settledBy(
          deadline,
          Promise.resolve(metricsServer?.close())
            .then(() => workers.stop())
            .then(() => rateLimits.close())
            .then(() => store.close()),
          () => logger.warn("stopped before the store closed"),
        ),
      );
      return closing;
    },
    skipDrain: () => shutdown.skipDrain(),
  };
}

/** `work`, or at `deadline` (a `performance.now()` time) `late` and an end to the wait. */
function settledBy(deadline: number, work: Promise<unknown>, late: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        late();
        resolve();
      },
      // Past it, Node's timer would fire at once.
      Math.min(Math.max(0, deadline - performance.now()), MAX_TIMER_MS),
    );
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Serves this process's metrics on `METRICS_PORT`. */
async function serveMetrics(config: Config, metrics: ServerMetrics, logger: Logger): Promise<MetricsServer> {
  const { port, host } = config.metrics!;
  return startMetricsServer(
    port,
    host,
    async () => ({
      contentType: metrics.registry.contentType,
      body: await metrics.registry.metrics(),
    }),
    (error) => logger.error({ err: error }, "metrics scrape failed"),
  );
}
