import type { RateLimitRepository } from "@service-api/ports";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import { RedisStore, type SendCommandFn } from "rate-limit-redis";
import { DatabaseRateLimitStore } from "./database-rate-limit-store.js";
import { FailOpenStore, LIMIT_STORE_TIMEOUT_MS, LimitStoreHealth } from "./fail-open-store.js";
import { RedisConnection } from "./redis-connection.js";

/** How often ended windows are deleted from the database. */
const SWEEP_INTERVAL_MS = 60_000;

/** Where the limits count: shared by every instance, each store failing open. */
export interface LimitStores {
  /** A new store for one limiter, its keys under `prefix`. */
  create(prefix: string): Store;
  close(): Promise<void>;
}

/**
 * How long commands wait for the first connection: well within the time a store may take to
 * answer, so a slow first connection makes no store count as failing.
 */
const FIRST_CONNECTION_WAIT_MS = LIMIT_STORE_TIMEOUT_MS / 2;

/** Counts in Redis: every instance given the same `REDIS_URL` shares them. */
export function redisLimitStores(redisUrl: string, logger: Logger): LimitStores {
  const connection = new RedisConnection(redisUrl, FIRST_CONNECTION_WAIT_MS);
  // Commands sent while the first connection is made wait for it, so the requests that arrive right
  // after the server starts are counted rather than let through; later, a lost connection fails fast.
  const sendCommand: SendCommandFn = async (...command) => {
    await connection.firstConnection;
    return connection.send(command) as ReturnType<SendCommandFn>;
  };
  const health = new LimitStoreHealth(logger);
  return {
    create: (prefix) => new FailOpenStore(new RedisStore({ prefix, sendCommand }), health),
    close: async () => connection.close(),
  };
}

/** Counts in the database the instances already share; ended windows are swept once a minute. */
export function databaseLimitStores(rateLimits: RateLimitRepository, logger: Logger): LimitStores {
  const sweep = setInterval(() => {
    rateLimits.deleteEnded(Date.now()).catch(() => {});
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  const health = new LimitStoreHealth(logger);
  return {
    create: (prefix) => new FailOpenStore(new DatabaseRateLimitStore(rateLimits, prefix), health),
    close: async () => clearInterval(sweep),
  };
}
