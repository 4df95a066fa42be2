import { aDataset, aWorkspace } from "@service-api/ports/testing";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt, saveDatasetAsBefore0016 } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

const datasetsOf = async (db: Kysely<unknown>) =>
  (
    await sql<{ id: string; name: string; indexing_technique: string | null; permission: string }>`
      select id, name, indexing_technique, permission from datasets order by id`.execute(db)
  ).rows;

describe.skipIf(!available)("migration 0016 (datasets made by the API, and jobs)", () => {
  const database = useTestDatabase();

  it("keeps what datasets showed, renames names a workspace held twice, and goes down again", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      expect((await migrator.migrateTo("0015-counter-lock-order")).error).toBeUndefined();
      const [workspace, other] = [aWorkspace(), aWorkspace()];
      for (const each of [workspace, other])
        await sql`insert into workspaces (id, name, status) values (${each.id}, ${each.name}, 'normal')`.execute(
          db,
        );
      const ids = ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"];
      const twins = ids.map((id) => aDataset(workspace.id, { id, name: "Docs" }));
      const elsewhere = aDataset(other.id, { id: "00000000-0000-4000-8000-00000000000c", name: "Docs" });
      for (const dataset of [...twins, elsewhere]) await saveDatasetAsBefore0016(db, dataset);

      expect((await migrator.migrateTo("0016-datasets-by-api")).error).toBeUndefined();
      expect(await datasetsOf(db)).toEqual([
        { id: ids[0], name: "Docs", indexing_technique: "economy", permission: "all_team_members" },
        { id: ids[1], name: "Docs (2)", indexing_technique: "economy", permission: "all_team_members" },
        { id: elsewhere.id, name: "Docs", indexing_technique: "economy", permission: "all_team_members" },
      ]);
      await expect(
        sql`update datasets set name = 'Docs' where id = ${ids[1]}`.execute(db),
      ).rejects.toMatchObject({ code: "23505" });
      await sql`insert into jobs (id, kind, subject_id, run_after, created_at)
        values ('j', 'purge_dataset', ${ids[0]}, 1, 1)`.execute(db);

      expect((await migrator.migrateTo("0015-counter-lock-order")).error).toBeUndefined();
      const { rows } = await sql<{ table: string }>`select table_name as table from information_schema.tables
        where table_schema = current_schema() and table_name = 'jobs'`.execute(db);
      expect(rows).toEqual([]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
