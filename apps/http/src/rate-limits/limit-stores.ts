import type { RateLimitRepository } from "@service-api/ports";
import type { Store } from "express-rate-limit";
import type { Logger } from "pino";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";
import { DatabaseRateLimitStore } from "./database-rate-limit-store.js";
import { FailOpenStore, LimitStoreHealth } from "./fail-open-store.js";

/** How often ended windows are deleted from the database. */
const SWEEP_INTERVAL_MS = 60_000;

/** Where the limits count: shared by every instance, each store failing open. */
export interface LimitStores {
  /** A new store for one limiter, its keys under `prefix`. */
  create(prefix: string): Store;
  close(): Promise<void>;
}

/** Counts in Redis: every instance given the same `REDIS_URL` shares them. */
export function redisLimitStores(redisUrl: string, logger: Logger): LimitStores {
  const client = createClient({
    url: redisUrl,
    // Fail at once while disconnected rather than queue: a limit must never hold a request up.
    disableOfflineQueue: true,
    socket: { connectTimeout: 1_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
  });
  // An unheard "error" event would end the process; the fail-open store reports failures once.
  client.on("error", () => {});
  client.connect().catch(() => {});
  const health = new LimitStoreHealth(logger);
  return {
    create: (prefix) =>
      new FailOpenStore(
        new RedisStore({ prefix, sendCommand: (...command: string[]) => client.sendCommand(command) }),
        health,
      ),
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
