import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

/** The schema's value write function: its settings, and whether it locks counter rows before writing. */
const valueWrite = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ settings: string[] | null; body: string }>`
    select proconfig as settings, prosrc as body from pg_proc
    where proname = 'write_document_values' and pronamespace = current_schema()::regnamespace`.execute(db);
  return rows.map(({ settings, body }) => ({
    settings: settings ?? [],
    locksCountersFirst: /insert into metadata_field_counts[\s\S]*delete from document_metadata_values/.test(
      body,
    ),
  }));
};

describe.skipIf(!available)("migration 0015 (the value write's counter rows in order)", () => {
  const database = useTestDatabase();

  it("locks the counter rows first, keeps the plans kept for any call, and goes back to 0014's write", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      const before = { settings: ["plan_cache_mode=force_generic_plan"], locksCountersFirst: false };
      expect((await migrator.migrateTo("0014-value-write-plans")).error).toBeUndefined();
      expect(await valueWrite(db)).toEqual([before]);
      expect((await migrator.migrateTo("0015-counter-lock-order")).error).toBeUndefined();
      expect(await valueWrite(db)).toEqual([{ ...before, locksCountersFirst: true }]);
      expect((await migrator.migrateDown()).error).toBeUndefined();
      expect(await valueWrite(db)).toEqual([before]);
    } finally {
      await db.destroy();
    }
  });
});
