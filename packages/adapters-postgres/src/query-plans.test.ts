import { analyze, BM25_B, BM25_K1, bm25Weights, countTerms, readMetadataFilter } from "@service-api/domain";
import {
  aChunk,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anUploadFile,
  aSegment,
  aWorkspace,
} from "@service-api/ports/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

const available = await requirePostgresForTests();

/** A store on `url` that records the statements it sends while `record`'s work runs. */
async function recordingStore(url: string) {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  let recording = false;
  const store = await openPostgresStore({
    databaseUrl: url,
    // Only the statements of the work recorded; counter rows stay as written.
    fieldCountFolding: false,
    onQuery: (sql, parameters) => {
      if (recording) statements.push({ sql, parameters });
    },
  });
  const record = async <T>(work: () => Promise<T>): Promise<T> => {
    recording = true;
    try {
      return await work();
    } finally {
      recording = false;
    }
  };
  return { store, statements, record };
}

/** PostgreSQL's plan of `sql` for these parameters, as `explain` prints it. */
async function planOf(client: pg.Client, sql: string, parameters: readonly unknown[]): Promise<string> {
  return planText((await client.query(`explain ${sql}`, parameters as unknown[])).rows);
}

/** The lines of an `explain`'s answer as one text. */
const planText = (rows: Record<string, string>[]) => rows.map((row) => row["QUERY PLAN"]).join("\n");

// Each case seeds thousands of rows: seconds alone, several times as long beside the rest of the suite.
describe.skipIf(!available)("PostgreSQL query plans", { timeout: 120_000 }, () => {
  const database = useTestDatabase();

  it("serves a keyword search of document names from the pg_trgm index", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    try {
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await store.repositories.datasets.save(dataset);
      // Enough documents that the planner weighs the indexes as it would at scale.
      await store.transaction(
        async ({ documents }) => {
          for (let index = 0; index < 3000; index++)
            await documents.save(aDocument(dataset.id, { name: `note ${index}.md`, position: index }));
        },
        { manyRows: true },
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // As autovacuum would: statistics, and the GIN index's pending list merged into it.
        await client.query("vacuum analyze documents");
        const { total } = await record(() =>
          store.repositories.documents.listPage(dataset.id, { keyword: "Note 2424" }, 0, 20),
        );
        expect(total).toBe(1);
        for (const { sql, parameters } of statements) {
          expect(await planOf(client, sql, parameters)).toMatch(
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

  it("runs a later page of datasets' sub-selects for the page's rows only, not for those it skips", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    try {
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      for (let index = 0; index < 60; index++)
        await store.repositories.datasets.save(aDataset(workspace.id, { createdAt: index }));
      const { items } = await record(() => store.repositories.datasets.listPage(workspace.id, {}, 40, 10));
      expect(items).toHaveLength(10);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const [page] = statements;
        const { rows } = await client.query(
          `explain (analyze, format json) ${page!.sql}`,
          page!.parameters as unknown[],
        );
        type Node = { "Parent Relationship"?: string; "Actual Loops": number; Plans?: Node[] };
        const loopsOfSubPlans = (node: Node): number[] => [
          ...(node["Parent Relationship"] === "SubPlan" ? [node["Actual Loops"]] : []),
          ...(node.Plans ?? []).flatMap(loopsOfSubPlans),
        ];
        const loops = loopsOfSubPlans((rows[0]["QUERY PLAN"] as { Plan: Node }[])[0]!.Plan);
        expect(loops.length).toBeGreaterThan(0);
        expect(Math.max(...loops)).toBeLessThanOrEqual(10);
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
  });

  it("looks up a document page's upload files by id, never reading the workspace's files", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    try {
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      const member = aMember(workspace.id);
      await store.repositories.workspaces.saveMember(member);
      const dataset = aDataset(workspace.id);
      await store.repositories.datasets.save(dataset);
      // As the bench's 1k data set: a file each. Joined, the page of 20 hashed all 1,000 files.
      await store.transaction(
        async ({ documents }) => {
          for (let index = 0; index < 1000; index++) {
            const file = anUploadFile(member.id);
            await documents.saveUploadFile(workspace.id, file);
            await documents.save(aDocument(dataset.id, { position: index, uploadFileId: file.id }));
          }
        },
        { manyRows: true },
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("vacuum analyze");
        const { items } = await record(() =>
          store.repositories.documents.findPage(workspace.id, dataset.id, {}, 0, 20),
        );
        expect(items.filter((item) => item.uploadFile !== undefined)).toHaveLength(20);
        expect(statements).toHaveLength(1);
        const { sql, parameters } = statements[0]!;
        const plan = await planOf(client, sql, parameters);
        expect(plan).toMatch(/Index Scan using upload_files_pkey on upload_files/);
        expect(plan).not.toMatch(/Seq Scan on upload_files/);
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
  });

  it("reads a dataset's documents in position order from where a page ended, in the index's order", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { workspaces, datasets, documents, segments } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      // Enough documents, three to a position, that the planner weighs the indexes as at scale.
      const saved = Array.from({ length: 3000 }, (_, index) =>
        aDocument(dataset.id, { position: Math.floor(index / 3) }),
      );
      await store.transaction(
        async (repositories) => {
          for (const document of saved) await repositories.documents.save(document);
        },
        { manyRows: true },
      );
      await documents.saveChunks(saved.flatMap((document) => [aChunk(document.id), aChunk(document.id)]));
      await client.query("vacuum analyze documents, chunks");
      const place = saved[1500]!;
      const pages = await record(() =>
        Promise.all([
          documents.listInDatasetAfter(dataset.id, undefined, 200),
          documents.listInDatasetAfter(dataset.id, place, 200),
        ]),
      );
      expect(pages.map((page) => page.length)).toEqual([200, 200]);
      const chunkStatements = statements.length;
      await record(() => segments.listOfDocuments(pages[1]!.map((document) => document.id)));
      expect(statements.length - chunkStatements).toBe(2);
      // Planned for these values, and for any (the generic plan a named statement ends up with).
      for (const { sql, parameters } of statements.slice(0, chunkStatements)) {
        const values = (parameters as unknown[]).map((value) => client.escapeLiteral(String(value)));
        await client.query(`prepare page as ${sql}`);
        const plans = [await planOf(client, sql, parameters)];
        await client.query("set plan_cache_mode = force_generic_plan");
        plans.push(planText((await client.query(`explain execute page(${values.join(", ")})`)).rows));
        await client.query("reset plan_cache_mode");
        await client.query("deallocate page");
        for (const plan of plans) {
          expect(plan).toMatch(/Index Scan using documents_by_dataset_position on documents/);
          expect(plan).not.toMatch(/Sort|Seq Scan/);
          if (values.length > 2) {
            expect(plan).toMatch(/Index Cond: \(\(dataset_id = .*\) AND \(ROW\("position", id\) > ROW\(/);
          }
        }
      }
      // A page's segments (and their child chunks), a fair share of this small table, may be read
      // by a scan; with scans priced out, the index must serve each statement's condition (as it
      // does at scale), then a sort.
      await client.query("set enable_seqscan = off");
      for (const { sql, parameters } of statements.slice(chunkStatements)) {
        const plan = await planOf(client, sql, parameters);
        expect(plan).toMatch(/Index Cond: \(document_id = ANY /);
        expect(plan).not.toMatch(/Seq Scan/);
      }
    } finally {
      await client.end();
      await store.close();
    }
  });

  it("finds a field's counter rows through their index, to read and to count, however small the table", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { workspaces, datasets, documents, metadata } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const fields = [aMetadataField(dataset.id, { name: "a" }), aMetadataField(dataset.id, { name: "b" })];
      for (const field of fields) await metadata.createField(field);
      const document = aDocument(dataset.id);
      await documents.save(document);
      for (const field of fields) await metadata.setValue(document.id, field.id, "v");

      // Other fields' counter rows: what a statement that cannot use the index reads through.
      const other = aDataset(workspace.id);
      await datasets.save(other);
      await client.query(
        `insert into metadata_fields (id, dataset_id, name, type, created_at)
           select $1 || n, $1, 'f' || n, 'string', 0 from generate_series(1, 100) n`,
        [other.id],
      );
      const { rowCount: otherRows } = await client.query(
        `insert into metadata_field_counts (field_id, slot, count)
           select id, slot, 1 from metadata_fields, generate_series(0, 15) slot where dataset_id = $1`,
        [other.id],
      );
      const [found, listed] = await record(() =>
        Promise.all([metadata.findFieldUsage(workspace.id, dataset.id), metadata.listFieldUsage(dataset.id)]),
      );
      expect(statements.length).toBeGreaterThanOrEqual(2);
      // The joined counter rows still count each field's value.
      expect(found.fields.map((field) => field.count)).toEqual([1, 1]);
      expect(listed.map((field) => field.count)).toEqual([1, 1]);

      // Whatever a plan picks (scans priced out here, so it cannot pick one where an index serves),
      // the rows the counter table gave up tell whether its index found this dataset's.
      await client.query("begin");
      await client.query("set local enable_seqscan = off");
      for (const { sql, parameters } of statements) await client.query(sql, parameters as unknown[]);
      // The counting trigger's updates, then the cascade from a deleted field.
      await client.query("delete from document_metadata_values where document_id = $1", [document.id]);
      await client.query("delete from metadata_fields where id = $1", [fields[0]?.id]);
      const { rows } = await client.query(
        `select (seq_tup_read + coalesce(idx_tup_fetch, 0))::int as read from pg_stat_xact_user_tables
          where schemaname = current_schema() and relname = 'metadata_field_counts'`,
      );
      await client.query("rollback");
      expect(otherRows).toBe(1600);
      // Two reads of two fields' rows, two updates, one cascade: a handful of rows, never the table.
      expect(rows[0]?.read).toBeGreaterThan(0);
      expect(rows[0]?.read).toBeLessThanOrEqual(12);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it("scores a query's postings by looking up their units and chunks, never by scanning the dataset's, filtered or not", async () => {
    const url = await createTestSchema(database.url);
    const { store, statements, record } = await recordingStore(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { workspaces, datasets, documents, segments, metadata } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const tier = aMetadataField(dataset.id, { name: "tier", type: "string" });
      await metadata.createField(tier);
      // 10,000 segments of words drawn by rank (the i-th word about 1/i as often), as text is.
      let seed = 7;
      const word = () => {
        seed = (seed * 48_271) % 2_147_483_647;
        return `w${Math.floor(2000 ** (seed / 2_147_483_647))}`;
      };
      for (let documentIndex = 0; documentIndex < 20; documentIndex++) {
        const document = aDocument(dataset.id, { position: documentIndex + 1 });
        await documents.save(document);
        const written = Array.from({ length: 500 }, (_, index) =>
          aSegment(document.id, index + 1, {
            content: Array.from({ length: 40 }, word).join(" "),
            keywords: [],
          }),
        );
        await segments.replaceForImport(document.id, written, []);
        if (documentIndex === 7) await metadata.setValue(document.id, tier.id, "gold");
      }
      await client.query("vacuum analyze search_postings, search_units, chunks, documents");

      const terms = countTerms(analyze("w40 w200 w900"));
      const filter = readMetadataFilter(
        { logical_operator: "and", conditions: [{ name: "tier", comparison_operator: "is", value: "gold" }] },
        [tier],
        false,
      );
      const [hits, filtered] = await record(() =>
        store.snapshot(async ({ search }) => {
          const stats = await search.statistics(dataset.id, "content_and_keywords", Object.keys(terms));
          const { weights } = bm25Weights(terms, stats.units, stats.documentFrequencies);
          const query = {
            datasetId: dataset.id,
            field: "content_and_keywords" as const,
            weights,
            k1: BM25_K1,
            b: BM25_B,
            averageLength: stats.totalLength / stats.units,
            topK: 10,
          };
          return [await search.topSegments(query), await search.topSegments({ ...query, filter })];
        }),
      );
      expect(hits).toHaveLength(10);
      expect(filtered).toHaveLength(10);
      // Replayed in one transaction as the snapshot sent them, the scoring ones explained.
      const scoring = statements.filter(({ sql }) => sql.includes("search_postings p"));
      expect(scoring.length).toBeGreaterThan(0);
      await client.query("begin");
      const plans: { plan: string; narrowed: boolean }[] = [];
      for (const statement of statements) {
        const { sql, parameters } = statement;
        const narrowed = sql.includes("document_metadata_values");
        if (scoring.includes(statement))
          plans.push({ plan: await planOf(client, sql, parameters), narrowed });
        else await client.query(sql, parameters as unknown[]);
      }
      await client.query("rollback");
      expect(plans.filter(({ narrowed }) => narrowed)).toHaveLength(1);
      for (const { plan } of plans) {
        expect(plan).not.toMatch(/Seq Scan on chunks/);
        // The filter passes one document in twenty: its units are read by their index, though
        // the planner would guess that it passes half.
        expect(plan).not.toMatch(/Seq Scan on search_units/);
      }
    } finally {
      await client.end();
      await store.close();
    }
  });
});
