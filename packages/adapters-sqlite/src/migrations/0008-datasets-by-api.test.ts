import { TRASH_WORKSPACE_ID } from "@service-api/adapters-kysely";
import { aDataset, aWorkspace } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { describe, expect, it } from "vitest";
import { sqliteMigrations } from "./index.js";

describe("migration 0008 (datasets made by the API, and jobs)", () => {
  it("keeps what datasets showed, renames names a workspace held twice, and goes down again", async () => {
    const database = new Database(":memory:");
    database.pragma("foreign_keys = on");
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
    const migrator = new Migrator({ db, provider: sqliteMigrations });
    try {
      expect((await migrator.migrateTo("0007-metadata-field-order")).error).toBeUndefined();
      const workspace = aWorkspace();
      database
        .prepare("insert into workspaces (id, name, status) values (?, ?, 'normal')")
        .run(workspace.id, "w");
      const ids = [
        "00000000-0000-4000-8000-00000000000a",
        "00000000-0000-4000-8000-00000000000b",
        "00000000-0000-4000-8000-00000000000c",
      ];
      // Two "Docs" and a "Docs (2)": the second "Docs" becomes "Docs (3)", the first free name.
      for (const [id, name] of [
        [ids[0]!, "Docs"],
        [ids[1]!, "Docs"],
        [ids[2]!, "Docs (2)"],
      ]) {
        const dataset = aDataset(workspace.id, { id, name });
        database
          .prepare(
            `insert into datasets (id, workspace_id, name, enable_api, built_in_field_enabled, description,
              created_at, updated_at) values (?, ?, ?, 1, 0, '', ?, ?)`,
          )
          .run(dataset.id, workspace.id, dataset.name, dataset.createdAt, dataset.updatedAt);
      }
      expect((await migrator.migrateTo("0008-datasets-by-api")).error).toBeUndefined();
      expect(
        database.prepare("select id, name, indexing_technique, permission from datasets order by id").all(),
      ).toEqual([
        { id: ids[0], name: "Docs", indexing_technique: "economy", permission: "all_team_members" },
        { id: ids[1], name: "Docs (3)", indexing_technique: "economy", permission: "all_team_members" },
        { id: ids[2], name: "Docs (2)", indexing_technique: "economy", permission: "all_team_members" },
      ]);
      expect(() => database.prepare("update datasets set name = 'Docs' where id = ?").run(ids[1])).toThrow(
        /UNIQUE constraint failed/,
      );
      await sql`insert into jobs (id, kind, subject_id, run_after, created_at)
        values ('j', 'purge_dataset', ${ids[0]}, 1, 1)`.execute(db);
      // A deleted dataset waiting in the trash goes with it on the way down.
      database
        .prepare("insert into workspaces (id, name, status) values (?, 'Deleted datasets', 'archived')")
        .run(TRASH_WORKSPACE_ID);
      database
        .prepare("update datasets set workspace_id = ?, name = id where id = ?")
        .run(TRASH_WORKSPACE_ID, ids[2]);
      expect((await migrator.migrateTo("0007-metadata-field-order")).error).toBeUndefined();
      expect(database.prepare("select name from sqlite_master where name = 'jobs'").all()).toEqual([]);
      expect(database.prepare("select id from datasets order by id").all()).toEqual([
        { id: ids[0] },
        { id: ids[1] },
      ]);
      expect(database.prepare("select id from workspaces").all()).toEqual([{ id: workspace.id }]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
