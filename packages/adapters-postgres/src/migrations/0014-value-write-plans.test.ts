import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

/** The settings the schema's value write function runs with. */
const settingsOfValueWrite = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ settings: string[] | null }>`
    select proconfig as settings from pg_proc
    where proname = 'write_document_values' and pronamespace = current_schema()::regnamespace`.execute(db);
  return rows.map(({ settings }) => settings ?? []);
};

describe.skipIf(!available)("migration 0014 (the value write's plans)", () => {
  const database = useTestDatabase();

  it("runs the value write's statements on plans kept for any call, and takes that away", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      expect((await migrator.migrateTo("0013-commit-flush-marks")).error).toBeUndefined();
      expect(await settingsOfValueWrite(db)).toEqual([[]]);
      expect((await migrator.migrateTo("0014-value-write-plans")).error).toBeUndefined();
      expect(await settingsOfValueWrite(db)).toEqual([["plan_cache_mode=force_generic_plan"]]);
      expect((await migrator.migrateDown()).error).toBeUndefined();
      expect(await settingsOfValueWrite(db)).toEqual([[]]);
    } finally {
      await db.destroy();
    }
  });
});
