import { createKyselyRepositories, type DatabaseSchema } from "@service-api/adapters-kysely";
import { aDataset, aDocument, aMetadataField, aTag, aWorkspace } from "@service-api/ports/testing";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import { postgresFeatures } from "./postgres-features.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

const available = await requirePostgresForTests();

/** Rows this transaction updated and inserted so far, by table of the schema. */
async function writtenRows(db: Kysely<DatabaseSchema>) {
  const { rows } = await sql<{ table: string; updated: string; inserted: string }>`
    select relname as table, n_tup_upd as updated, n_tup_ins as inserted
    from pg_stat_xact_user_tables where schemaname = current_schema()`.execute(db);
  return Object.fromEntries(
    rows.map((row) => [row.table, { updated: Number(row.updated), inserted: Number(row.inserted) }]),
  );
}

describe.skipIf(!available)("counts kept once by a transaction of many rows (migration 0012)", () => {
  const database = useTestDatabase();

  it("updates no counter row while it writes, and each one once when it counts", async () => {
    const url = await createTestSchema(database.url);
    await (await openPostgresStore({ databaseUrl: url, accessListener: false })).close();
    const db = new Kysely<DatabaseSchema>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    try {
      await db.transaction().execute(async (trx) => {
        const repositories = createKyselyRepositories(trx, postgresFeatures);
        const workspace = aWorkspace();
        await repositories.workspaces.save(workspace);
        const dataset = aDataset(workspace.id);
        await repositories.datasets.save(dataset);
        const fields = [aMetadataField(dataset.id), aMetadataField(dataset.id)];
        for (const field of fields) await repositories.metadata.saveField(field);
        const tag = aTag(workspace.id);
        await repositories.tags.save(tag);
        const before = await writtenRows(trx);

        await sql`select count_later()`.execute(trx);
        for (let index = 0; index < 50; index += 1) {
          const document = aDocument(dataset.id, { position: index + 1 });
          await repositories.documents.save(document);
          for (const field of fields) await repositories.metadata.setValue(document.id, field.id, "v");
        }
        await repositories.tags.bind([
          {
            id: globalThis.crypto.randomUUID(),
            workspaceId: workspace.id,
            tagId: tag.id,
            targetId: dataset.id,
            createdAt: 1,
          },
        ]);
        const written = await writtenRows(trx);
        for (const counters of ["datasets", "metadata_fields", "tags"])
          expect(written[counters]?.updated, counters).toBe(before[counters]?.updated);
        expect(written.metadata_field_counts?.inserted ?? 0).toBe(0);

        await sql`select count_now()`.execute(trx);
        const counted = await writtenRows(trx);
        expect(counted.datasets!.updated - written.datasets!.updated).toBe(1);
        expect(counted.metadata_fields!.updated - written.metadata_fields!.updated).toBe(2);
        expect(counted.tags!.updated - written.tags!.updated).toBe(1);
        const overview = await repositories.datasets.findOverview(workspace.id, dataset.id);
        expect(overview?.counts).toEqual({ documents: 50, availableDocuments: 50, words: 50 * 300 });
        expect((await repositories.metadata.listFieldUsage(dataset.id)).map(({ count }) => count)).toEqual([
          50, 50,
        ]);
        expect(
          (await repositories.tags.findInWorkspace(workspace.id, "knowledge", tag.id))?.bindingCount,
        ).toBe(1);

        // Counted: later writes of the transaction count at once again.
        await repositories.documents.save(aDocument(dataset.id, { position: 51 }));
        expect((await writtenRows(trx)).datasets!.updated - counted.datasets!.updated).toBe(2);
      });
    } finally {
      await db.destroy();
    }
  });

  it("counts with each row, as before, for a role refused temporary tables", async () => {
    const url = await createTestSchema(database.url);
    await (await openPostgresStore({ databaseUrl: url, accessListener: false })).close();
    const role = `service_api_no_temp_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const database_ = (await admin.query("select current_database() as name")).rows[0].name as string;
    const schema = (await admin.query("select current_schema() as name")).rows[0].name as string;
    await admin.query(`create role ${role} login`);
    await admin.query(`revoke temporary on database ${database_} from public`);
    await admin.query(`grant usage, create on schema ${schema} to ${role}`);
    await admin.query(`grant all on all tables in schema ${schema} to ${role}`);
    await admin.query(`grant all on all sequences in schema ${schema} to ${role}`);
    const asRole = new URL(url);
    asRole.username = role;
    const store = await openPostgresStore({ databaseUrl: asRole.toString(), accessListener: false });
    try {
      const workspace = aWorkspace();
      const dataset = aDataset(workspace.id);
      await store.transaction(
        async ({ workspaces, datasets, documents }) => {
          await workspaces.save(workspace);
          await datasets.save(dataset);
          for (let position = 1; position <= 3; position += 1)
            await documents.save(aDocument(dataset.id, { position }));
        },
        { manyRows: true },
      );
      const overview = await store.repositories.datasets.findOverview(workspace.id, dataset.id);
      expect(overview?.counts).toEqual({ documents: 3, availableDocuments: 3, words: 900 });
    } finally {
      await store.close();
      await admin.query(`grant temporary on database ${database_} to public`);
      await admin.query(`drop owned by ${role}`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });

  it("is what the store's transaction of many rows does, first and last; others count as they write", async () => {
    const statements: string[] = [];
    const store = await openPostgresStore({
      databaseUrl: await createTestSchema(database.url),
      accessListener: false,
      onQuery: (text) => statements.push(text),
    });
    try {
      const workspace = aWorkspace();
      statements.length = 0; // Opening's.
      const many = await store.transaction(
        async ({ workspaces }) => {
          await workspaces.save(workspace);
          return statements.length;
        },
        { manyRows: true },
      );
      expect(statements.slice(0, 2)).toEqual(["begin", "select count_later()"]);
      expect(statements.slice(many)).toEqual(["select count_now()", "commit"]);
      statements.length = 0;
      await store.transaction(({ workspaces }) => workspaces.save({ ...workspace, name: "Renamed" }));
      expect(statements.filter((text) => text.includes("count_"))).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
