import { seedSearchableSegments } from "@service-api/ports/testing";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../open-postgres-store.js";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("migration 0023 (units by document, postings with their units' lengths)", () => {
  const database = useTestDatabase();

  it("indexes units by document and copies the lengths of the postings 0022 wrote from their units, scores unchanged", async () => {
    const url = await createTestSchema(database.url);
    const store = await openPostgresStore({ databaseUrl: url, accessListener: false });
    const { search } = await seedSearchableSegments(store.repositories);
    const before = await search(store.repositories);
    await store.close();
    expect(before).toHaveLength(3);

    // As 0022 left the index before this release: no units by document, postings without lengths.
    const { db, migrator } = await migrationsAt(url);
    try {
      await sql`drop index search_units_by_document`.execute(db);
      await sql`alter table search_postings drop column content_length, drop column keyword_length`.execute(
        db,
      );
      await sql`delete from kysely_migration where name = '0023-search-lookups'`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const { rows } = await sql<{ postings: number; copied: number; defaults: number }>`
        select count(*)::int as postings,
          count(*) filter (where p.content_length = u.content_length
            and p.keyword_length = u.keyword_length and u.content_length > 0)::int as copied,
          (select count(*)::int from information_schema.columns where table_schema = current_schema()
            and table_name = 'search_postings' and column_default is not null) as defaults
        from search_postings p join search_units u on u.seq = p.unit_seq`.execute(db);
      expect(rows[0]!.postings).toBeGreaterThan(0);
      expect(rows[0]!.copied).toBe(rows[0]!.postings);
      // A writer that forgot a length is refused, not scored as if it were 0.
      expect(rows[0]!.defaults).toBe(0);
      const { rows: indexes } = await sql`select 1 from pg_indexes where schemaname = current_schema()
        and indexname = 'search_units_by_document'`.execute(db);
      expect(indexes).toHaveLength(1);
    } finally {
      await db.destroy();
    }

    const migrated = await openPostgresStore({ databaseUrl: url, accessListener: false });
    try {
      expect(await search(migrated.repositories)).toEqual(before);
    } finally {
      await migrated.close();
    }
  });
});
