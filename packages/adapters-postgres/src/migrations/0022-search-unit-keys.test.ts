import {
  aChildChunk,
  aDataset,
  aDocument,
  aSegment,
  aWorkspace,
  searchAsRetrieved,
} from "@service-api/ports/testing";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../open-postgres-store.js";
import { migrationsAt } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("migration 0022 (the search index keyed by unit seq)", () => {
  const database = useTestDatabase();

  it("replaces 0020's layout and indexes the stored segments, as their writes would have", async () => {
    const url = await createTestSchema(database.url);
    const store = await openPostgresStore({ databaseUrl: url });
    const { workspaces, datasets, documents, segments } = store.repositories;
    const workspace = aWorkspace();
    await workspaces.save(workspace);
    const dataset = aDataset(workspace.id);
    await datasets.save(dataset);
    const text = aDocument(dataset.id, { docForm: "text_model" });
    const tree = aDocument(dataset.id, { docForm: "hierarchical_model", position: 2 });
    await documents.save(text);
    await documents.save(tree);
    const written = aSegment(text.id, 1, { content: "Supersonic wings", keywords: ["delta"] });
    const parent = aSegment(tree.id, 1, { content: "Parent", keywords: [] });
    await segments.replaceForImport(text.id, [written], []);
    await segments.replaceForImport(
      tree.id,
      [parent],
      [aChildChunk(parent, 1, { content: "Supersonic flutter" })],
    );
    const before = await searchAsRetrieved(
      store.repositories,
      dataset.id,
      "supersonic delta",
      "content_and_keywords",
    );
    await store.close();
    expect(before.map((hit) => hit.segmentId).sort()).toEqual([written.id, parent.id].sort());

    // As a database that ran 0021 with 0020's first layout has it: postings keyed by a unit's id.
    const { db, migrator } = await migrationsAt(url);
    try {
      expect((await migrator.migrateTo("0021-chunk-contents")).error).toBeUndefined();
      await sql`create table search_units (id text collate "C" primary key, dataset_id text not null,
        document_id text not null, segment_id text not null references chunks (id) on delete cascade,
        child_id text references child_chunks (id) on delete cascade,
        content_length bigint not null, keyword_length bigint not null)`.execute(db);
      await sql`create table search_postings (dataset_id text not null, term text not null,
        unit_id text not null references search_units (id) on delete cascade,
        content_tf bigint not null, keyword_tf bigint not null, primary key (dataset_id, term, unit_id))`.execute(
        db,
      );
      await sql`create table search_stats (dataset_id text primary key references datasets (id) on delete cascade,
        units bigint not null default 0, content_units bigint not null default 0,
        content_length bigint not null default 0, keyword_length bigint not null default 0)`.execute(db);
      await sql`create function search_units_added() returns trigger language plpgsql as $$
        begin return null; end $$`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
        where table_name = 'search_postings' and table_schema = current_schema()`.execute(db);
      expect(rows.map((row) => row.column_name)).toContain("unit_seq");
    } finally {
      await db.destroy();
    }

    const migrated = await openPostgresStore({ databaseUrl: url });
    try {
      expect(
        await searchAsRetrieved(
          migrated.repositories,
          dataset.id,
          "supersonic delta",
          "content_and_keywords",
        ),
      ).toEqual(before);
      const statistics = await migrated.repositories.search.statistics(dataset.id, "content_and_keywords", [
        "delta",
      ]);
      expect(statistics.units).toBe(2);
    } finally {
      await migrated.close();
    }
  });
});
