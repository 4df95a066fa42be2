import type { Store, StoreMonitor } from "@service-api/ports";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { FieldCountFolder, foldFieldCounts } from "./field-count-folding.js";
import { openPostgresStore } from "./open-postgres-store.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

/** One connection for folds, hearing its error while idle or ending (the schema's drop ends it). */
function quietPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 1 });
  pool.on("error", () => {});
  return pool;
}

const available = await requirePostgresForTests();

type Field = ReturnType<typeof aMetadataField>;

describe.skipIf(!available)("folding fields' counter rows", () => {
  const database = useTestDatabase();

  /**
   * A store that never folds on its own, a plain connection, a way to fold, and a dataset with two
   * fields and 40 documents; all closed after `work`.
   */
  async function withFields(
    work: (context: {
      url: string;
      store: Store;
      client: pg.Client;
      fold: () => Promise<number>;
      fields: [Field, Field];
      documentIds: string[];
      write: (documentId: string, set: [string, string][], clear?: string[]) => Promise<void>;
      truth: () => Promise<number[]>;
      counted: () => Promise<number[]>;
      counterRows: (fieldId?: string) => Promise<number>;
    }) => Promise<void>,
  ): Promise<void> {
    const url = await createTestSchema(database.url);
    const store = await openPostgresStore({ databaseUrl: url, fieldCountFolding: false });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const folding = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: quietPool(url) }),
    });
    try {
      const { workspaces, datasets, documents, metadata } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const fields: [Field, Field] = [
        aMetadataField(dataset.id, { name: "owner" }),
        aMetadataField(dataset.id, { name: "team" }),
      ];
      for (const field of fields) await metadata.createField(field);
      const documentIds: string[] = [];
      for (let index = 0; index < 40; index++) {
        const document = aDocument(dataset.id, { position: index });
        await documents.save(document);
        documentIds.push(document.id);
      }
      const write = (documentId: string, set: [string, string][], clear: string[] = []) =>
        metadata.writeValues(dataset.id, [{ documentId, replaceAll: false, set, clear }]);
      const truth = async () =>
        Promise.all(
          fields.map(
            async (field) =>
              (
                await client.query(
                  "select count(*)::int as n from document_metadata_values where field_id = $1",
                  [field.id],
                )
              ).rows[0].n as number,
          ),
        );
      const counted = async () => (await metadata.listFieldUsage(dataset.id)).map((field) => field.count);
      const counterRows = async (fieldId?: string) =>
        (
          await client.query(
            "select count(*)::int as n from metadata_field_counts where $1::text is null or field_id = $1",
            [fieldId ?? null],
          )
        ).rows[0].n as number;
      await work({
        url,
        store,
        client,
        fold: async () => (await foldFieldCounts(folding, 500)).folded,
        fields,
        documentIds,
        write,
        truth,
        counted,
        counterRows,
      });
    } finally {
      await folding.destroy();
      await client.end();
      await store.close();
    }
  }

  it("moves the rows into their fields, and counts stay right through later writes and removals", () =>
    withFields(async ({ fold, fields, documentIds, write, truth, counted, counterRows }) => {
      const [owner, team] = fields;
      for (const [index, documentId] of documentIds.entries())
        await write(
          documentId,
          index % 2 === 0
            ? [[owner.id, "a"]]
            : [
                [owner.id, "a"],
                [team.id, "b"],
              ],
        );
      for (const documentId of documentIds.slice(0, 6)) await write(documentId, [], [owner.id]);
      expect(await counted()).toEqual([34, 20]);
      expect(await counterRows()).toBeGreaterThan(16);

      expect(await fold()).toBe(2);
      expect(await counterRows()).toBe(0);
      expect(await counted()).toEqual([34, 20]);

      // Removing values counted before the fold takes from their slots' rows, made again (from 0),
      // as new values make them; the next fold takes those too.
      for (const documentId of documentIds.slice(6, 16)) await write(documentId, [], [owner.id, team.id]);
      for (const documentId of documentIds.slice(0, 3)) await write(documentId, [[team.id, "c"]]);
      expect(await counted()).toEqual(await truth());
      expect(await counted()).toEqual([24, 17]);
      expect(await counterRows(owner.id)).toBeGreaterThan(0);
      expect(await counterRows(team.id)).toBeGreaterThan(0);
      expect(await fold()).toBe(2);
      expect(await counterRows()).toBe(0);
      expect(await counted()).toEqual([24, 17]);
      // Nothing left to fold.
      expect(await fold()).toBe(0);
    }));

  it("leaves the rows a writer holds, and a field a writer holds, without waiting for them", () =>
    withFields(
      async ({ url, store, client, fold, fields, documentIds, write, truth, counted, counterRows }) => {
        const [owner, team] = fields;
        for (const documentId of documentIds)
          await write(documentId, [
            [owner.id, "a"],
            [team.id, "b"],
          ]);
        // Another instance's value for a new document, not yet committed: a row of `owner` it holds
        // (a slot the first document's value already made a row for).
        const slotOf = async (id: string) =>
          (await client.query("select hashtext($1) & 15 as slot", [id])).rows[0].slot as number;
        let added = aDocument(owner.datasetId, { position: 99 });
        while ((await slotOf(added.id)) !== (await slotOf(documentIds[0] ?? "")))
          added = aDocument(owner.datasetId);
        await store.repositories.documents.save(added);
        const writer = new pg.Client({ connectionString: url });
        await writer.connect();
        try {
          await writer.query("begin");
          await writer.query("insert into document_metadata_values values ($1, $2, 'x')", [
            added.id,
            owner.id,
          ]);
          // A transaction holding `team`'s own row, as a removal whose slot has no row does.
          const holder = new pg.Client({ connectionString: url });
          await holder.connect();
          try {
            await holder.query("begin");
            await holder.query("select 1 from metadata_fields where id = $1 for no key update", [team.id]);
            const teamRows = await counterRows(team.id);
            // Folds `owner` but the held row, and nothing of `team`, at once.
            expect(await fold()).toBe(1);
            expect(await counterRows(owner.id)).toBe(1);
            expect(await counterRows(team.id)).toBe(teamRows);
            await holder.query("commit");
          } finally {
            await holder.end();
          }
          await writer.query("commit");
        } finally {
          await writer.end();
        }
        expect(await counted()).toEqual(await truth());
        expect(await counted()).toEqual([41, 40]);
        expect(await fold()).toBe(2);
        expect(await counterRows()).toBe(0);
        expect(await counted()).toEqual([41, 40]);
      },
    ));

  it(
    "keeps every count exact while folds run among concurrent writes from two instances",
    () =>
      withFields(async ({ url, store, fold, fields, documentIds, truth, counted }) => {
        const second = await openPostgresStore({
          databaseUrl: url,
          fieldCountFolding: false,
        });
        try {
          const [owner, team] = fields;
          const instances = [store, second];
          const datasetId = owner.datasetId;
          let folds = 0;
          let writing = true;
          const folding = (async () => {
            while (writing) {
              await fold();
              folds += 1;
            }
          })();
          // Each write sets one field and clears the other on a document; documents overlap across writers.
          await Promise.all(
            Array.from({ length: 8 }, async (_, writer) => {
              for (let round = 0; round < 25; round++) {
                const documentId = documentIds[(writer * 7 + round * 3) % documentIds.length] ?? "";
                const setting = (writer + round) % 3 !== 0;
                await instances[writer % 2]?.repositories.metadata.writeValues(datasetId, [
                  {
                    documentId,
                    replaceAll: false,
                    set: [[setting ? owner.id : team.id, `${round}`]],
                    clear: [setting ? team.id : owner.id],
                  },
                ]);
              }
            }),
          );
          writing = false;
          await folding;
          expect(folds).toBeGreaterThan(1);
          expect(await counted()).toEqual(await truth());
          await fold();
          expect(await counted()).toEqual(await truth());
        } finally {
          await second.close();
        }
      }),
    30_000,
  );

  it("goes on from the field where the last fold stopped, past fields it could not take", () =>
    withFields(async ({ url, client, fields, documentIds, write, counted, counterRows }) => {
      const third = aMetadataField(fields[0].datasetId, { name: "third" });
      const pg3 = await openPostgresStore({ databaseUrl: url, fieldCountFolding: false });
      try {
        await pg3.repositories.metadata.createField(third);
      } finally {
        await pg3.close();
      }
      for (const documentId of documentIds.slice(0, 20))
        await write(documentId, [
          [fields[0].id, "a"],
          [fields[1].id, "b"],
          [third.id, "c"],
        ]);
      const [first, second, last] = [fields[0].id, fields[1].id, third.id].sort() as [string, string, string];
      const folding = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: quietPool(url) }),
      });
      try {
        // The first field held by another transaction: a fold of one field looks at it, takes
        // nothing, and says where it stopped; the next two go on to the others.
        await client.query("begin");
        await client.query("select 1 from metadata_fields where id = $1 for no key update", [first]);
        expect(await foldFieldCounts(folding, 1)).toEqual({ folded: 0, last: first });
        expect(await foldFieldCounts(folding, 1, first)).toEqual({ folded: 1, last: second });
        expect(await foldFieldCounts(folding, 1, second)).toEqual({ folded: 1, last });
        // Past the last field with rows: fewer than asked, so the next starts from the first again.
        expect(await foldFieldCounts(folding, 1, last)).toEqual({ folded: 0, last: undefined });
        await client.query("commit");
        expect(await counterRows(second)).toBe(0);
        expect(await counterRows(last)).toBe(0);
        expect(await counterRows(first)).toBeGreaterThan(0);
        expect(await foldFieldCounts(folding, 1)).toEqual({ folded: 1, last: first });
        expect(await counted()).toEqual([20, 20, 20]);
      } finally {
        await client.query("rollback").catch(() => {});
        await folding.destroy();
      }
    }));

  it("refuses bad folding options before it connects, leaving nothing open", async () => {
    const url = await createTestSchema(database.url);
    const backends = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name like 'service-api%'",
        );
        return rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    const before = await backends();
    for (const intervalMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])
      await expect(
        openPostgresStore({ databaseUrl: url, fieldCountFolding: { intervalMs } }),
      ).rejects.toThrow(RangeError);
    expect(await backends()).toBe(before);
  });

  it("keeps folding when its monitor throws", async () => {
    const url = await createTestSchema(database.url);
    const taskFailed = vi.fn(() => {
      throw new Error("a monitor that throws");
    });
    const store = await openPostgresStore({
      databaseUrl: url,
      monitor: { unavailable() {}, available() {}, connectionLost() {}, backgroundTaskFailed: taskFailed },
      fieldCountFolding: { intervalMs: 20 },
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("alter table metadata_field_counts rename to metadata_field_counts_away");
      await expect.poll(() => taskFailed.mock.calls.length, { timeout: 5_000 }).toBeGreaterThan(2);
      await client.query("alter table metadata_field_counts_away rename to metadata_field_counts");
    } finally {
      await store.close();
      await client.end();
    }
  });

  it("folds on its own every interval, tells the monitor when a fold fails, and stops when closed", async () => {
    const url = await createTestSchema(database.url);
    const taskFailed = vi.fn<(task: string, error: Error) => void>();
    const monitor: StoreMonitor = {
      unavailable: vi.fn(),
      available: vi.fn(),
      connectionLost: vi.fn(),
      backgroundTaskFailed: taskFailed,
    };
    const store = await openPostgresStore({
      databaseUrl: url,
      monitor,
      fieldCountFolding: { intervalMs: 40 },
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const counterRows = async () =>
      (await client.query("select count(*)::int as n from metadata_field_counts")).rows[0].n as number;
    try {
      const { workspaces, datasets, documents, metadata } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const field = aMetadataField(dataset.id, { name: "owner" });
      await metadata.createField(field);
      // Held, so that the rows below are all there to be seen before the store folds them.
      await client.query("begin");
      await client.query("select 1 from metadata_fields where id = $1 for no key update", [field.id]);
      for (let index = 0; index < 20; index++) {
        const document = aDocument(dataset.id, { position: index });
        await documents.save(document);
        await metadata.setValue(document.id, field.id, "a");
      }
      expect(await counterRows()).toBeGreaterThan(1);
      await client.query("commit");
      await expect.poll(counterRows, { timeout: 5_000 }).toBe(0);
      expect((await metadata.listFieldUsage(dataset.id))[0]?.count).toBe(20);
      expect(taskFailed).not.toHaveBeenCalled();

      await client.query("alter table metadata_field_counts rename to metadata_field_counts_away");
      await expect.poll(() => taskFailed.mock.calls.length, { timeout: 5_000 }).toBeGreaterThan(0);
      expect(taskFailed.mock.calls[0]?.[0]).toBe("fold field counts");
      await client.query("alter table metadata_field_counts_away rename to metadata_field_counts");
    } finally {
      await store.close();
    }
    // Closed: no fold runs on a pool that is gone.
    const failures = taskFailed.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(taskFailed.mock.calls.length).toBe(failures);
    await client.end();
  });
});

describe("FieldCountFolder", () => {
  it("refuses an interval or batch that is not a positive number, which a timer would run every millisecond", () => {
    const db = {} as Kysely<unknown>;
    for (const intervalMs of [
      Number.NaN,
      undefined as unknown as number,
      0,
      -5,
      Number.POSITIVE_INFINITY,
      2 ** 31,
    ])
      expect(() => new FieldCountFolder(db, { intervalMs, fields: 500 })).toThrow(RangeError);
    for (const fields of [0, 1.5, Number.NaN])
      expect(() => new FieldCountFolder(db, { intervalMs: 10_000, fields })).toThrow(RangeError);
    expect(() => new FieldCountFolder(db, { intervalMs: 10_000, fields: 500 })).not.toThrow();
  });
});
