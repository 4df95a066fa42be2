import { aDataset, aDocument, aWorkspace } from "@service-api/ports/testing";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsAt, saveDatasetAsBefore0016, saveDocumentAsBefore0018 } from "../testing/migrations-at.js";
import { createTestSchema, requirePostgresForTests } from "../testing/test-databases.js";
import { useTestDatabase } from "../testing/use-test-database.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("migration 0018 (what indexing a document writes)", () => {
  const database = useTestDatabase();

  it("keeps a stored chunk as a completed, enabled segment, and goes down and up again", async () => {
    const { db, migrator } = await migrationsAt(await createTestSchema(database.url));
    try {
      expect((await migrator.migrateTo("0015-counter-lock-order")).error).toBeUndefined();
      const workspace = aWorkspace();
      await sql`insert into workspaces (id, name, status) values (${workspace.id}, 'w', 'normal')`.execute(
        db,
      );
      const dataset = aDataset(workspace.id);
      await saveDatasetAsBefore0016(db, dataset);
      expect((await migrator.migrateTo("0017-upload-file-contents")).error).toBeUndefined();
      const document = aDocument(dataset.id);
      await saveDocumentAsBefore0018(db, document);
      await sql`insert into chunks (id, document_id, position, content, char_count, hit_count)
        values ('00000000-0000-4000-8000-0000000000c1', ${document.id}, 1, 'text', 4, 2)`.execute(db);

      expect((await migrator.migrateTo("0018-documents-by-text")).error).toBeUndefined();
      const { rows } = await sql<Record<string, unknown>>`select status, enabled, tokens, keywords, answer
        from chunks`.execute(db);
      expect(rows).toEqual([
        { status: "completed", enabled: true, tokens: "0", keywords: null, answer: null },
      ]);
      const { rows: documents } = await sql<Record<string, unknown>>`select batch, indexing_job,
        processing_started_at from documents`.execute(db);
      expect(documents).toEqual([{ batch: null, indexing_job: null, processing_started_at: null }]);

      expect((await migrator.migrateTo("0017-upload-file-contents")).error).toBeUndefined();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
