import {
  type PostgresPoolOptions,
  type PostgresTuning,
  type SqliteTuning,
  StoreEnvironmentError,
  storeOptionsFromEnvironment,
} from "@service-api/stores";
import { z } from "zod";
import type { RateLimitSettings } from "./rate-limits/rate-limits.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5001),
  HOST: z.string().min(1).default("0.0.0.0"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  FILES_URL: z.url().optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(5_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).optional(),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).default(100),
  AUTH_FAILURE_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "expected a redis:// or rediss:// URL" }).optional(),
  TRUST_PROXY: z.string().optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  NODE_ENV: z.string().optional(),
  DEMO: z.enum(["auto", "off"]).default("auto"),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
});

/** The server's settings, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; a path or `file:` URL, SQLite. */
  databaseUrl: string;
  /** PostgreSQL pool bounds (`DATABASE_POOL_MAX`, `DATABASE_*_TIMEOUT_MS`). */
  pool: PostgresPoolOptions;
  /** PostgreSQL tuning (`DATABASE_FIELD_COUNT_FOLD_MS`). */
  postgres: PostgresTuning;
  /** SQLite tuning (`SQLITE_MMAP_SIZE`). */
  sqlite: Required<SqliteTuning>;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Public base of image icons (`icon_url`); defaults to the server's own address. */
  filesUrl: string;
  /**
   * After a shutdown's drain: how long open connections may take to finish their requests before
   * they are closed.
   */
  shutdownTimeoutMs: number;
  /**
   * How long a shutdown keeps answering (with `/readyz` at 503 and every response closing its
   * connection) before it stops accepting connections: the time a load balancer takes to notice.
   */
  shutdownDrainMs: number;
  /** How long a client may take to send a request's headers, then its whole request (else 408). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Per key and per client address; counted in Redis (`REDIS_URL`) or the database. */
  rateLimits: RateLimitSettings;
  /**
   * Express's `trust proxy` (`TRUST_PROXY`): which proxies' `X-Forwarded-For` gives the client
   * address that failed authentication is counted by. Off by default.
   */
  trustProxy: boolean | number | string;
  /** Where Prometheus metrics are served (`METRICS_PORT`, `METRICS_HOST`); absent: not at all. */
  metrics: { port: number; host: string } | undefined;
  /**
   * Demo mode: at start, an empty database (or one holding only the demo) gets the demo workspace
   * and fresh demo keys, printed with examples. Off when NODE_ENV=production or DEMO=off.
   */
  demo: boolean;
  /** Processes serving the port (node:cluster); 1 runs the server in this process. */
  workers: number;
}

export class ConfigError extends Error {}

export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const blanksRemoved = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ""));
  const parsed = environmentSchema.safeParse(blanksRemoved);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  let store: ReturnType<typeof storeOptionsFromEnvironment> | undefined;
  try {
    store = storeOptionsFromEnvironment(environment);
  } catch (error) {
    if (!(error instanceof StoreEnvironmentError)) throw error;
    problems.push(error.message);
  }
  if (!parsed.success || !store) throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  const data = parsed.data;
  if (data.HEADERS_TIMEOUT_MS > data.REQUEST_TIMEOUT_MS)
    throw new ConfigError("Invalid configuration: HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS");
  const { PORT, HOST, LOG_LEVEL, FILES_URL, SHUTDOWN_TIMEOUT_MS, NODE_ENV, DEMO, WORKERS } = data;
  return {
    port: PORT,
    host: HOST,
    databaseUrl: store.databaseUrl,
    pool: store.pool,
    postgres: store.postgres,
    sqlite: store.sqlite,
    logLevel: LOG_LEVEL,
    filesUrl: FILES_URL ?? `http://${publicHostOf(HOST)}:${PORT}`,
    shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: data.SHUTDOWN_DRAIN_MS,
    headersTimeoutMs: data.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: data.REQUEST_TIMEOUT_MS,
    rateLimits: {
      perKey: data.RATE_LIMIT_PER_KEY
        ? { limit: data.RATE_LIMIT_PER_KEY, windowMs: data.RATE_LIMIT_WINDOW_MS }
        : undefined,
      authFailures: data.AUTH_FAILURE_LIMIT
        ? { limit: data.AUTH_FAILURE_LIMIT, windowMs: data.AUTH_FAILURE_WINDOW_MS }
        : undefined,
      redisUrl: data.REDIS_URL,
    },
    trustProxy: trustProxyOf(data.TRUST_PROXY),
    metrics:
      data.METRICS_PORT === undefined
        ? undefined
        : { port: data.METRICS_PORT, host: data.METRICS_HOST ?? HOST },
    demo: NODE_ENV !== "production" && DEMO !== "off",
    workers: WORKERS,
  };
}

/** `TRUST_PROXY` as Express takes it: `true`/`false`, a number of hops, or addresses and subnets. */
function trustProxyOf(value: string | undefined): boolean | number | string {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** A host a client can use: the loopback name for a wildcard bind, brackets for IPv6. */
export function publicHostOf(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
