import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedSearchableSegments } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../open-sqlite-store.js";
import { sqliteMigrations } from "./index.js";

const postingColumns = (database: Database.Database) =>
  (database.prepare("select name from pragma_table_info('search_postings')").all() as { name: string }[])
    .map((column) => column.name)
    .filter((name) => name.endsWith("_length"));

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A store file holding `seedSearchableSegments`' dataset, closed, with its search before the migration's change. */
async function seededFile() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-0015-"));
  directories.push(directory);
  const path = join(directory, "store.sqlite");
  const store = await openSqliteStore({ databaseUrl: path });
  const { search } = await seedSearchableSegments(store.repositories);
  const before = await search(store.repositories);
  await store.close();
  return { path, search, before };
}

describe("migration 0015 (units by document, postings with their units' lengths)", () => {
  it("indexes units by document and copies the lengths of the postings 0014 wrote from their units, scores unchanged", async () => {
    const { path, search, before } = await seededFile();
    expect(before).toHaveLength(3);

    // As 0014 left the index before this release: no units by document, postings without lengths.
    const database = new Database(path);
    database.exec(`
      drop index search_units_by_document;
      alter table search_postings drop column content_length;
      alter table search_postings drop column keyword_length;
      delete from kysely_migration where name = '0015-search-lookups';`);
    database.close();

    const migrated = await openSqliteStore({ databaseUrl: path });
    try {
      expect(await search(migrated.repositories)).toEqual(before);
    } finally {
      await migrated.close();
    }
    const reader = new Database(path, { readonly: true });
    const counts = reader
      .prepare(`select count(*) as postings, sum(p.content_length = u.content_length
          and p.keyword_length = u.keyword_length and u.content_length > 0) as copied
        from search_postings p join search_units u on u.seq = p.unit_seq`)
      .get() as { postings: number; copied: number };
    const indexes = reader
      .prepare("select name from sqlite_master where type = 'index' and name = 'search_units_by_document'")
      .all();
    reader.close();
    expect(indexes).toHaveLength(1);
    expect(counts.postings).toBeGreaterThan(0);
    expect(counts.copied).toBe(counts.postings);
  });

  it("goes down to 0014's layout and up again, scores unchanged", async () => {
    const { path, search, before } = await seededFile();

    const database = new Database(path);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
    const migrator = new Migrator({ db, provider: sqliteMigrations });
    try {
      expect((await migrator.migrateTo("0014-search-unit-keys")).error).toBeUndefined();
      expect(postingColumns(database)).toEqual([]);
      const indexes = database
        .prepare("select name from sqlite_master where type = 'index' and name = 'search_units_by_document'")
        .all();
      expect(indexes).toEqual([]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(postingColumns(database).sort()).toEqual(["content_length", "keyword_length"]);
    } finally {
      await db.destroy();
    }
    const migrated = await openSqliteStore({ databaseUrl: path });
    try {
      expect(await search(migrated.repositories)).toEqual(before);
    } finally {
      await migrated.close();
    }
  });
});
