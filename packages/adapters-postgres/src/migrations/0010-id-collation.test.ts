import { createKyselyRepositories, type DatabaseSchema } from "@service-api/adapters-kysely";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../open-postgres-store.js";
import { postgresFeatures } from "../postgres-features.js";
import { migrationsAt, saveDatasetAsBefore0016, saveDocumentAsBefore0018 } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

/** Text columns holding a row's id (`id`, `…_id`, `…_by`) whose collation is not "C". */
const idColumnsNotInC = async (db: Kysely<unknown>) =>
  (
    await sql<{ column: string }>`select table_name || '.' || column_name as column
      from information_schema.columns
      where table_schema = current_schema() and data_type = 'text'
        and (column_name = 'id' or column_name like '%\\_id' or column_name like '%\\_by')
        and collation_name is distinct from 'C'
      order by 1`.execute(db)
  ).rows.map((row) => row.column);

describe.skipIf(!available)('migration 0010 (ids in the "C" collation)', () => {
  const database = useTestDatabase();

  it("gives every column naming a row the collation of the ids it names, down and up again over rows", async () => {
    const url = await createTestSchema(database.url);
    const store = await openPostgresStore({ databaseUrl: url, accessListener: false });
    await store.close();
    const { db, migrator } = await migrationsAt(url);
    try {
      expect(await idColumnsNotInC(db)).toEqual([]);
      expect((await migrator.migrateTo("0009-field-count-slots")).error).toBeUndefined();
      expect(await idColumnsNotInC(db)).toEqual([
        "apps.created_by",
        "datasets.created_by",
        "datasets.updated_by",
        "documents.archived_by",
        "metadata_field_counts.field_id",
      ]);
      // Up again over rows: a field's counter row keeps its field and its count.
      const { workspaces, metadata } = createKyselyRepositories(
        db as Kysely<DatabaseSchema>,
        postgresFeatures,
      );
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await saveDatasetAsBefore0016(db, dataset);
      const field = aMetadataField(dataset.id);
      await metadata.saveField(field);
      const document = aDocument(dataset.id);
      await saveDocumentAsBefore0018(db, document);
      await metadata.setValue(document.id, field.id, "v");
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await idColumnsNotInC(db)).toEqual([]);
      expect(await metadata.listFieldUsage(dataset.id)).toMatchObject([{ id: field.id, count: 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
