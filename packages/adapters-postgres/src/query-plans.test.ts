import { aDataset, aDocument, aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "./testing/test-databases.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("PostgreSQL query plans", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it("serves a keyword search of document names from the pg_trgm index", async () => {
    const url = await createTestSchema(database.url);
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    let recording = false;
    const store = await openPostgresStore({
      databaseUrl: url,
      onQuery: (sql, parameters) => {
        if (recording) statements.push({ sql, parameters });
      },
    });
    try {
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await store.repositories.datasets.save(dataset);
      // Enough documents that the planner weighs the indexes as it would at scale.
      await store.transaction(async ({ documents }) => {
        for (let index = 0; index < 3000; index++)
          await documents.save(aDocument(dataset.id, { name: `note ${index}.md`, position: index }));
      });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // As autovacuum would: statistics, and the GIN index's pending list merged into it.
        await client.query("vacuum analyze documents");
        recording = true;
        const { total } = await store.repositories.documents.listPage(
          dataset.id,
          { keyword: "Note 2424" },
          0,
          20,
        );
        recording = false;
        expect(total).toBe(1);
        for (const { sql, parameters } of statements) {
          const { rows } = await client.query(`explain ${sql}`, parameters as unknown[]);
          const plan = rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
          expect(plan).toMatch(
            /Bitmap Index Scan on document_names[^\n]*\n\s+Index Cond: \(\(dataset_id = .*name ~~\* /,
          );
        }
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
  });
});
