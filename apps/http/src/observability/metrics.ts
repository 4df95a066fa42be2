import type { AuthenticateApiKey } from "@service-api/application";
import type { Store } from "@service-api/ports";
import type { RequestHandler } from "express";
import { type Aggregator, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { statusOf } from "./response-status.js";
import type { StoreOutage } from "./store-outage.js";

/** What the metrics read at each scrape. */
export interface MetricSources {
  store: Store;
  outage: StoreOutage;
  authenticate: AuthenticateApiKey;
}

/** Where a request's route template is read from: the path of the router that matched it. */
const ROUTE_BASE = "routeBase";
/** The route label of a request no route matched: never its path, which may hold ids. */
export const UNMATCHED = "unmatched";
/** The route label of a request refused before it was parsed (bad HTTP, headers too large or slow). */
export const UNPARSED = "unparsed";

/**
 * How the primary of `WORKERS=n` combines default metrics whose sum over the workers means nothing
 * (the rest are summed). prom-client sets its own for `process_start_time_seconds` (omitted),
 * `nodejs_version_info` (first) and `nodejs_eventloop_lag_*` (min, max, average).
 */
const ACROSS_WORKERS: Record<string, Aggregator> = {
  // A limit of each process, not of the cluster.
  process_max_fds: "max",
  // Read against that limit: the process nearest its limit.
  process_open_fds: "max",
};

/** A counter whose total is read from a source at each scrape. */
function countedAt(counter: Counter, read: () => number): void {
  counter.reset();
  counter.inc(read());
}

/**
 * The server's Prometheus metrics, in a registry of their own. Labels hold route templates,
 * methods, status codes and fixed names: never an id, a key or a user string.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<"route" | "method" | "status">;
  readonly #duration: Histogram<"route" | "method" | "status">;
  readonly #inFlight: Gauge;
  readonly #rateLimited: Counter<"limit">;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: "service_api_http_requests_total",
      help: "Requests answered, by route template, method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    });
    this.#duration = new Histogram({
      name: "service_api_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its response.",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#inFlight = new Gauge({
      name: "service_api_http_requests_in_flight",
      help: "Requests received and not yet answered.",
      registers,
    });
    this.#rateLimited = new Counter({
      name: "service_api_rate_limited_total",
      help: "Requests refused with 429, by limit (per_key, auth_failures).",
      labelNames: ["limit"],
      registers,
    });
    new Counter({
      name: "service_api_store_unavailable_total",
      help: "Store calls that failed because the store could not be reached (answered 503).",
      registers,
      collect() {
        countedAt(this, () => sources.outage.failures);
      },
    });
    new Counter({
      name: "service_api_store_connections_lost_total",
      help: "Database connections lost: dropped by the server or the network, or closed here once they stopped answering.",
      registers,
      collect() {
        countedAt(this, () => sources.outage.connectionsLost);
      },
    });
    new Counter({
      name: "service_api_store_conflicts_lost_total",
      help: "Store calls that lost every try to concurrent transactions (answered 503).",
      registers,
      collect() {
        countedAt(this, () => sources.outage.conflictsLost);
      },
    });
    new Counter({
      name: "service_api_store_lock_waits_exceeded_total",
      help: "Store calls refused because a lock held elsewhere (an import's, say) outlasted their wait; a request's call answers 503.",
      registers,
      collect() {
        countedAt(this, () => sources.outage.lockWaitsExceeded);
      },
    });
    new Gauge({
      name: "service_api_store_outage",
      help: "1 while the store is in an outage (its calls fail to reach it), else 0.",
      aggregator: "max",
      registers,
      collect() {
        this.set(sources.outage.down ? 1 : 0);
      },
    });
    new Gauge({
      name: "service_api_db_pool_connections",
      help: "PostgreSQL pool connections by state: in_use, idle, and requests waiting for one.",
      labelNames: ["state"],
      registers,
      collect() {
        const counts = sources.store.connections?.();
        if (!counts) return;
        this.set({ state: "in_use" }, counts.inUse);
        this.set({ state: "idle" }, counts.idle);
        this.set({ state: "waiting" }, counts.waiting);
      },
    });
    new Counter({
      name: "service_api_key_grants_total",
      help: "API key checks answered from kept grants (hit) or by reading the key (miss).",
      labelNames: ["result"],
      registers,
      collect() {
        this.reset();
        this.inc({ result: "hit" }, sources.authenticate.grantLookups.kept);
        this.inc({ result: "miss" }, sources.authenticate.grantLookups.read);
      },
    });
    collectDefaultMetrics({ register: this.registry });
    for (const [name, aggregator] of Object.entries(ACROSS_WORKERS)) {
      const metric = this.registry.getSingleMetric(name);
      if (metric) Object.assign(metric, { aggregator });
    }
  }

  /** Counts every request and its duration, by the template of the route that matched it. */
  readonly recordRequests: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    this.#inFlight.inc();
    res.once("close", () => {
      this.#inFlight.dec();
      const route = req.route?.path;
      const labels = {
        route: typeof route === "string" ? `${res.locals[ROUTE_BASE] ?? ""}${route}` : UNMATCHED,
        method: req.method,
        status: statusOf(res),
      };
      this.#requests.inc(labels);
      this.#duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };

  /** Notes where a router is mounted, so that its routes are labelled with their full template. */
  static readonly markRouteBase: RequestHandler = (req, res, next) => {
    res.locals[ROUTE_BASE] = req.baseUrl;
    next();
  };

  /** A request Node refused before Express saw it: counted with its status, its method unknown. */
  refusedUnparsed(status: number): void {
    this.#requests.inc({ route: UNPARSED, method: "unknown", status: String(status) });
  }

  rateLimited(limit: "per_key" | "auth_failures"): void {
    this.#rateLimited.inc({ limit });
  }
}
