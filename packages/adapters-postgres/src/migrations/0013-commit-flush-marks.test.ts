import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

/** The schema's sequences. */
const sequences = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ name: string }>`
    select sequencename as name from pg_sequences where schemaname = current_schema()`.execute(db);
  return rows.map(({ name }) => name);
};

describe.skipIf(!available)("migration 0013 (the commit flush's sequence)", () => {
  const database = useTestDatabase();

  it("adds the sequence whose setval flushes, logged (a flush must write to the WAL), and takes it away", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      expect((await migrator.migrateTo("0012-counts-at-commit")).error).toBeUndefined();
      const before = await sequences(db);
      expect(before).not.toContain("commit_flush_marks");
      expect((await migrator.migrateTo("0013-commit-flush-marks")).error).toBeUndefined();
      expect((await sequences(db)).sort()).toEqual([...before, "commit_flush_marks"].sort());
      const { rows } = await sql<{ persistence: string }>`
        select relpersistence as persistence from pg_class
        where relname = 'commit_flush_marks' and relnamespace = current_schema()::regnamespace`.execute(db);
      expect(rows).toEqual([{ persistence: "p" }]);
      // Its setval takes a transaction id (and writes to the WAL): what makes its commit wait for the flush.
      const xid = await db.connection().execute(async (one) => {
        await sql`begin`.execute(one);
        try {
          await sql`select setval('commit_flush_marks', 1)`.execute(one);
          const { rows } = await sql<{ xid: string | null }>`
            select pg_current_xact_id_if_assigned()::text as xid`.execute(one);
          return rows[0]?.xid;
        } finally {
          await sql`rollback`.execute(one);
        }
      });
      expect(xid).toMatch(/^\d+$/);
      expect((await migrator.migrateDown()).error).toBeUndefined();
      expect((await sequences(db)).sort()).toEqual([...before].sort());
    } finally {
      await db.destroy();
    }
  });
});
