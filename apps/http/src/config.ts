import {
  expectedWholeNumber,
  MAX_TIMER_MS,
  type PostgresPoolOptions,
  type PostgresTuning,
  type SqliteTuning,
  StoreEnvironmentError,
  storeOptionsFromEnvironment,
  wholeNumberIn,
} from "@service-api/stores";
import express from "express";
import { z } from "zod";
import type { RateLimitSettings } from "./rate-limits/rate-limits.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A whole number within `minimum` and `maximum`, by the store's rule: plain decimal digits only. */
function wholeNumber(minimum: number, maximum?: number) {
  const rule = { minimum, maximum };
  return z.string().transform((raw, context) => {
    const value = wholeNumberIn(raw, rule);
    if (value !== undefined) return value;
    context.addIssue({ code: "custom", message: expectedWholeNumber(rule) });
    return z.NEVER;
  });
}

const milliseconds = (minimum: number) => wholeNumber(minimum, MAX_TIMER_MS);

/** An address or a name to resolve when listening; resolving is the listener's. */
const host = z.string().regex(/^\S+$/, "expected an address or host name, without spaces");

const environmentSchema = z.object({
  PORT: wholeNumber(0, 65535).default(5001),
  HOST: host.default("0.0.0.0"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  FILES_URL: z
    .url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" })
    .refine(
      (url) => !/[?#]/.test(url),
      "expected a base URL without a query or fragment: file paths go after it",
    )
    .optional(),
  SHUTDOWN_TIMEOUT_MS: milliseconds(0).default(10_000),
  SHUTDOWN_DRAIN_MS: milliseconds(0).default(5_000),
  HEADERS_TIMEOUT_MS: milliseconds(1).default(10_000),
  REQUEST_TIMEOUT_MS: milliseconds(1).default(30_000),
  RATE_LIMIT_PER_KEY: wholeNumber(1).optional(),
  RATE_LIMIT_WINDOW_MS: milliseconds(1).default(60_000),
  AUTH_FAILURE_LIMIT: wholeNumber(0).default(100),
  AUTH_FAILURE_WINDOW_MS: milliseconds(1).default(60_000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "expected a redis:// or rediss:// URL" }).optional(),
  TRUST_PROXY: z.string().transform(trustProxyOf).default(false),
  METRICS_PORT: wholeNumber(0, 65535).optional(),
  METRICS_HOST: host.optional(),
  NODE_ENV: z.string().optional(),
  DEMO: z.enum(["auto", "off"]).default("auto"),
  WORKERS: wholeNumber(1, 64).default(1),
  INDEXING_CONCURRENCY: wholeNumber(0, 64).default(1),
  INDEXING_LEASE_MS: milliseconds(1_000).default(30_000),
  UPLOAD_FILE_SIZE_LIMIT_MB: wholeNumber(1, 1024).default(15),
  INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH: wholeNumber(50, 1_000_000).default(4000),
  UPLOAD_FILE_EXTENSION_BLACKLIST: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((extension) => extension.trim().replace(/^\./, "").toLowerCase())
        .filter((extension) => extension !== ""),
    )
    .default([]),
  SECRET_KEY: z.string().optional(),
  FILES_ACCESS_TIMEOUT: wholeNumber(1, 7 * 24 * 3600).default(300),
  DATASET_MAX_SEGMENTS_PER_REQUEST: wholeNumber(0, 1_000_000).default(1000),
});

/** The server's settings, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; a path or `file:` URL, SQLite. */
  databaseUrl: string;
  /** Where uploaded files' bytes go (`FILES_DIR`); absent: in the database. */
  filesDir: string | undefined;
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
  /**
   * Background workers each process runs (`INDEXING_CONCURRENCY`): they claim the store's jobs
   * (a deleted dataset's purge). 0: none here; another process does the work.
   */
  backgroundWorkers: number;
  /**
   * How long a worker's lease on a job lasts (`INDEXING_LEASE_MS`), renewed as it works: a process
   * that dies holding a job frees it after this, for another worker (or the restarted one).
   */
  jobLeaseMs: number;
  /** The largest upload, a document's text or file (`UPLOAD_FILE_SIZE_LIMIT_MB`), in bytes. */
  uploadLimitBytes: number;
  /** The longest chunk a process rule may ask for (`INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH`). */
  maxSegmentationLength: number;
  /** Extensions no upload may have (`UPLOAD_FILE_EXTENSION_BLACKLIST`), lowercase, without the dot. */
  blockedUploadExtensions: string[];
  /**
   * The key file URLs are signed with (`SECRET_KEY`); absent, one the database holds, made at
   * first start, so that every instance on it agrees.
   */
  secretKey: string | undefined;
  /** How long a signed file URL works (`FILES_ACCESS_TIMEOUT`), in seconds. */
  filesAccessTimeoutSeconds: number;
  /** At most this many segments in one Add Chunks call (`DATASET_MAX_SEGMENTS_PER_REQUEST`); 0 for no limit. */
  maxSegmentsPerRequest: number;
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
  if (parsed.success) problems.push(...conflictsIn(parsed.data));
  if (!parsed.success || !store || problems.length > 0)
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  const data = parsed.data;
  const { PORT, HOST, LOG_LEVEL, FILES_URL, SHUTDOWN_TIMEOUT_MS, NODE_ENV, DEMO, WORKERS } = data;
  return {
    port: PORT,
    host: HOST,
    databaseUrl: store.databaseUrl,
    filesDir: store.filesDir,
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
    trustProxy: data.TRUST_PROXY,
    metrics:
      data.METRICS_PORT === undefined
        ? undefined
        : { port: data.METRICS_PORT, host: data.METRICS_HOST ?? HOST },
    demo: NODE_ENV !== "production" && DEMO !== "off",
    workers: WORKERS,
    backgroundWorkers: data.INDEXING_CONCURRENCY,
    jobLeaseMs: data.INDEXING_LEASE_MS,
    uploadLimitBytes: data.UPLOAD_FILE_SIZE_LIMIT_MB * 1024 * 1024,
    maxSegmentationLength: data.INDEXING_MAX_SEGMENTATION_TOKENS_LENGTH,
    blockedUploadExtensions: data.UPLOAD_FILE_EXTENSION_BLACKLIST,
    secretKey: data.SECRET_KEY,
    filesAccessTimeoutSeconds: data.FILES_ACCESS_TIMEOUT,
    maxSegmentsPerRequest: data.DATASET_MAX_SEGMENTS_PER_REQUEST,
  };
}

/** Settings each valid alone that cannot go together. */
function conflictsIn(data: z.infer<typeof environmentSchema>): string[] {
  const problems: string[] = [];
  if (data.HEADERS_TIMEOUT_MS > data.REQUEST_TIMEOUT_MS)
    problems.push("HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS");
  const metricsHost = data.METRICS_HOST ?? data.HOST;
  const sameInterface =
    metricsHost === data.HOST || [metricsHost, data.HOST].some((address) => WILDCARDS.includes(address));
  if (data.PORT !== 0 && data.METRICS_PORT === data.PORT && sameInterface)
    problems.push(`METRICS_PORT: must differ from PORT (both ${data.PORT} on the same interface)`);
  return problems;
}

/** The addresses that bind every interface. */
const WILDCARDS = ["0.0.0.0", "::"];

const TRUST_PROXY_EXPECTED =
  "expected true, false, a number of hops, or comma-separated addresses, subnets, loopback, linklocal or uniquelocal";

/**
 * `TRUST_PROXY` as Express takes it: `true`/`false`, a number of hops, or addresses and subnets,
 * refused here when Express's `trust proxy` setting would refuse it at start. A number inside a
 * list, or with spaces, is refused too: Express would read it as an IPv4 address (`2` as 0.0.0.2).
 */
function trustProxyOf(value: string, context: z.RefinementCtx): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  const hops = wholeNumberIn(value, { minimum: 0 });
  if (hops !== undefined) return hops;
  const entries = value.split(",").map((entry) => entry.trim());
  let problem: string | undefined;
  if (/^\d+$/.test(value)) problem = "too many hops";
  else if (entries.includes("")) problem = "an empty entry";
  else if (entries.some((entry) => /^(\d+|0x[\da-f]+)$/i.test(entry)))
    problem = "a number of hops is digits alone, not an address";
  else
    try {
      // Express's own setting (proxy-addr's compile, on the comma-separated entries): what it
      // refuses here, app.ts would refuse at start, without naming the variable.
      express().set("trust proxy", value);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
  if (problem === undefined) return value;
  context.addIssue({ code: "custom", message: `${TRUST_PROXY_EXPECTED} (${problem})` });
  return z.NEVER;
}

/** A host a client can use: the loopback name for a wildcard bind, brackets for IPv6. */
export function publicHostOf(host: string): string {
  if (WILDCARDS.includes(host)) return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
