import type { RateLimitRepository, RateLimitWindow } from "@service-api/ports";
import { type Kysely, sql } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";

/** One statement: the unique key settles concurrent hits, and an ended window starts over. */
const hitWindow = compiledRead((db, key: string, nowMs: number, resetAtMs: number) =>
  db
    .insertInto("rate_limit_counters")
    .values({ key, hits: 1, reset_at: resetAtMs })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        hits: sql<number>`case when rate_limit_counters.reset_at <= ${nowMs} then 1 else rate_limit_counters.hits + 1 end`,
        reset_at: sql<number>`case when rate_limit_counters.reset_at <= ${nowMs} then ${resetAtMs} else rate_limit_counters.reset_at end`,
      }),
    )
    .returning(["hits", "reset_at"]),
);

export class KyselyRateLimitRepository implements RateLimitRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async hit(key: string, nowMs: number, windowMs: number): Promise<RateLimitWindow> {
    const [row] = await hitWindow(this.db, key, nowMs, nowMs + windowMs);
    return { hits: Number(row!.hits), resetAtMs: Number(row!.reset_at) };
  }

  async unhit(key: string, nowMs: number): Promise<void> {
    await this.db
      .updateTable("rate_limit_counters")
      .set({ hits: sql`case when hits > 0 then hits - 1 else 0 end` })
      .where("key", "=", key)
      .where("reset_at", ">", nowMs)
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom("rate_limit_counters").where("key", "=", key).execute();
  }

  async deleteEnded(nowMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom("rate_limit_counters")
      .where("reset_at", "<=", nowMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
