import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

const COUNTING_FUNCTIONS = [
  "documents_count",
  "documents_dataset_counts",
  "document_metadata_values_count",
  "tag_bindings_count",
  "count_later",
  "count_now",
];

/** The bodies of the counting functions of the schema, their whitespace folded; absent ones left out. */
const bodies = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ name: string; body: string }>`
    select proname as name, prosrc as body from pg_proc
    where pronamespace = current_schema()::regnamespace and proname = any(${COUNTING_FUNCTIONS})`.execute(db);
  return Object.fromEntries(rows.map(({ name, body }) => [name, body.replace(/\s+/g, " ").trim()]));
};

describe.skipIf(!available)("migration 0012 (counts kept once by a transaction of many rows)", () => {
  const database = useTestDatabase();

  it("goes down to exactly the counting functions migrations 0003, 0006 and 0009 left", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      expect((await migrator.migrateTo("0011-value-writes")).error).toBeUndefined();
      const before = await bodies(db);
      expect(Object.keys(before).sort()).toEqual(COUNTING_FUNCTIONS.slice(0, 4).sort());
      expect((await migrator.migrateTo("0012-counts-at-commit")).error).toBeUndefined();
      const up = await bodies(db);
      expect(Object.keys(up).sort()).toEqual([...COUNTING_FUNCTIONS].sort());
      expect(up.documents_count).not.toBe(before.documents_count);
      expect((await migrator.migrateDown()).error).toBeUndefined();
      expect(await bodies(db)).toEqual(before);
    } finally {
      await db.destroy();
    }
  });
});
