import type { RateLimitRepository } from "@service-api/ports";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import { RedisStore, type SendCommandFn } from "rate-limit-redis";
import { createClient } from "redis";
import { DatabaseRateLimitStore } from "./database-rate-limit-store.js";
import { FailOpenStore, LIMIT_STORE_TIMEOUT_MS, LimitStoreHealth } from "./fail-open-store.js";

/** How often ended windows are deleted from the database. */
const SWEEP_INTERVAL_MS = 60_000;

/** Where the limits count: shared by every instance, each store failing open. */
export interface LimitStores {
  /** A new store for one limiter, its keys under `prefix`. */
  create(prefix: string): Store;
  close(): Promise<void>;
}

/** How long the Redis client tries to connect before it counts as unreachable. */
const CONNECT_TIMEOUT_MS = 1_000;
/**
 * How long commands wait for the first connection: well within the time a store may take to
 * answer, so a slow first connection makes no store count as failing.
 */
const FIRST_CONNECTION_WAIT_MS = LIMIT_STORE_TIMEOUT_MS / 2;

/** Settles when the client has connected or `ms` have passed, whichever comes first; never fails. */
function firstConnection(connecting: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    connecting.then(settle, settle);
  });
}

/** Counts in Redis: every instance given the same `REDIS_URL` shares them. */
export function redisLimitStores(redisUrl: string, logger: Logger): LimitStores {
  const client = createClient({
    url: redisUrl,
    // Fail at once while disconnected rather than queue: past the first connection (which commands
    // wait for, briefly), a lost Redis holds no request up.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  // An unheard "error" event would end the process; the fail-open store reports failures once.
  client.on("error", () => {});
  const starting = firstConnection(client.connect(), FIRST_CONNECTION_WAIT_MS);
  // Commands sent while the first connection is made wait for it, so the requests that arrive right
  // after the server starts are counted rather than let through; later, a lost connection fails fast.
  const sendCommand: SendCommandFn = async (...command) => {
    await starting;
    return client.sendCommand(command);
  };
  const health = new LimitStoreHealth(logger);
  return {
    create: (prefix) => new FailOpenStore(new RedisStore({ prefix, sendCommand }), health),
    close: async () => {
      client.destroy();
    },
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
