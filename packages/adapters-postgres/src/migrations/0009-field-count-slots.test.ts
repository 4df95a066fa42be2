import { createKyselyRepositories, type DatabaseSchema } from "@service-api/adapters-kysely";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../open-postgres-store.js";
import { postgresFeatures } from "../postgres-features.js";
import { migrationsAt, saveDatasetAsBefore0016, saveDocumentAsBefore0018 } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("migration 0009 (a field's count over rows)", () => {
  const database = useTestDatabase();

  it("moves the counts kept before it into the counter rows, and counts on from there", async () => {
    const url = await createTestSchema(database.url);
    const { db, migrator } = await migrationsAt(url);
    expect((await migrator.migrateTo("0008-access-notifications")).error).toBeUndefined();
    // Stored as the release before it stored them: each value counted in its field's row.
    const before = createKyselyRepositories(db as Kysely<DatabaseSchema>, postgresFeatures);
    const workspace = aWorkspace();
    await before.workspaces.save(workspace);
    const dataset = aDataset(workspace.id);
    await saveDatasetAsBefore0016(db, dataset);
    const field = aMetadataField(dataset.id);
    await before.metadata.saveField(field);
    const documents = Array.from({ length: 40 }, (_, index) =>
      aDocument(dataset.id, { position: index + 1 }),
    );
    for (const document of documents) {
      await saveDocumentAsBefore0018(db, document);
      await before.metadata.setValue(document.id, field.id, "v");
    }
    const { rows: counts } = await sql<{
      count: string;
    }>`select document_count as count from metadata_fields`.execute(db);
    expect(Number(counts[0]?.count)).toBe(40);
    await db.destroy();

    const store = await openPostgresStore({ databaseUrl: url, accessListener: false });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const counted = async () =>
        (
          await client.query(
            `select document_count::int as base, (select sum(count)::int from metadata_field_counts) as slots,
               (select count(*)::int from metadata_field_counts) as rows from metadata_fields`,
          )
        ).rows[0];
      const moved = await counted();
      expect(moved).toMatchObject({ base: 0, slots: 40 });
      expect(moved.rows).toBeGreaterThan(1);
      const { metadata } = store.repositories;
      expect((await metadata.listFieldUsage(dataset.id))[0]?.count).toBe(40);
      await metadata.writeValues(
        dataset.id,
        documents
          .slice(0, 10)
          .map((document) => ({ documentId: document.id, replaceAll: true, set: [], clear: [] })),
      );
      expect((await metadata.listFieldUsage(dataset.id))[0]?.count).toBe(30);
      expect(await counted()).toMatchObject({ base: 0, slots: 30 });
    } finally {
      await client.end();
      await store.close();
    }
  });
});
