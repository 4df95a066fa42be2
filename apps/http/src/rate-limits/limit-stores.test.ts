import { randomUUID } from "node:crypto";
import type { Options } from "express-rate-limit";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { requireRedisForTests, TEST_REDIS_URL } from "../../test/support/redis.js";
import { type LimitStores, redisLimitStores } from "./limit-stores.js";

const redis = await requireRedisForTests();
const opened: LimitStores[] = [];
afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});

describe.runIf(redis)("limits counted in Redis", () => {
  it("counts the hits that arrive while the client is still connecting", async () => {
    const stores = redisLimitStores(TEST_REDIS_URL, pino({ level: "silent" }));
    opened.push(stores);
    const store = stores.create(`service-api:test:${randomUUID()}:`);
    store.init?.({ windowMs: 60_000 } as Options);
    const first = await store.increment("key");
    const second = await store.increment("key");
    expect([first.totalHits, second.totalHits]).toEqual([1, 2]);
  });
});
