import type { DocumentValueChanges, Repositories, Store } from "@service-api/ports";
import {
  aConversation,
  aDataset,
  aDocument,
  aMetadataField,
  anApp,
  anEndUser,
  aTag,
  aVariable,
  aWorkspace,
} from "@service-api/ports/testing";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

/**
 * Backends waiting for a lock. The snapshot is cleared first: in a transaction, PostgreSQL answers
 * `pg_stat_activity` from the snapshot its first read took, so a poll would never see a wait begin.
 */
async function waitingForLocksSeenBy(client: pg.Client): Promise<number> {
  await client.query("select pg_stat_clear_snapshot()");
  const { rows } = await client.query(
    "select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
  );
  return rows[0].waiting as number;
}

/**
 * Deadlocks PostgreSQL has counted in the client's database, once no store's backend is left there:
 * a backend's counts reach `pg_stat_database` when it exits, while a busy one may hold them back for
 * up to 10 s (PostgreSQL 15). A store retries a deadlock, so this count is what shows one.
 */
async function settledDeadlocks(client: pg.Client): Promise<number> {
  const storeBackends = async () => {
    await client.query("select pg_stat_clear_snapshot()");
    const { rows } = await client.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name like 'service-api%'",
    );
    return rows[0].n as number;
  };
  await expect.poll(storeBackends, { timeout: 10_000 }).toBe(0);
  await client.query("select pg_stat_clear_snapshot()");
  const { rows } = await client.query(
    "select deadlocks::int as count from pg_stat_database where datname = current_database()",
  );
  return rows[0].count as number;
}

/**
 * A transaction of `store` that does `work` and then stays open, its locks held, until released:
 * `holding` settles once `work` has, `ended` once the transaction has.
 */
function heldTransaction(store: Store, work: (repositories: Repositories) => Promise<unknown>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let worked = () => {};
  const holding = new Promise<void>((resolve) => {
    worked = resolve;
  });
  const ended = store.transaction(async (repositories) => {
    await work(repositories);
    worked();
    await released;
  });
  // A transaction that fails before it holds ends the wait for it too.
  return { holding: Promise.race([holding, ended]), release, ended };
}

/** `work`, run on the first call only; later calls get the first call's promise. */
function once<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= work();
    return running;
  };
}

const available = await requirePostgresForTests();

type Tagged = ReturnType<typeof aTag>;

/** Several stores (pools) on one database: what several server instances are. */
describe.skipIf(!available)("PostgreSQL under several instances", () => {
  const database = useTestDatabase();

  async function instances(count: number): Promise<Store[]> {
    const url = await createTestSchema(database.url);
    return Promise.all(
      Array.from({ length: count }, () => openPostgresStore({ databaseUrl: url, pool: { max: 4 } })),
    );
  }
  const closeAll = (stores: Store[]) => Promise.all(stores.map((store) => store.close()));

  /**
   * The deadlocks PostgreSQL counted while three instances did `work` on a workspace with two
   * datasets, read once the instances have closed (`settledDeadlocks`).
   */
  async function deadlocksDuring(
    work: (context: {
      stores: Store[];
      workspace: ReturnType<typeof aWorkspace>;
      targets: ReturnType<typeof aDataset>[];
    }) => Promise<void>,
  ): Promise<number> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const before = await settledDeadlocks(client);
    const stores = await instances(3);
    const closing = once(() => closeAll(stores));
    try {
      const { workspaces, datasets } = stores[0]!.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const targets = [aDataset(workspace.id), aDataset(workspace.id)];
      for (const target of targets) await datasets.save(target);
      await work({ stores, workspace, targets });
      await closing();
      return (await settledDeadlocks(client)) - before;
    } finally {
      await closing();
      await client.end();
    }
  }

  /**
   * A store on a new schema, a second connection to it (another instance's), and a dataset of a new
   * workspace there; both connections closed after `work`.
   */
  async function withStoreAndOther(
    work: (context: {
      url: string;
      store: Store;
      other: pg.Client;
      dataset: ReturnType<typeof aDataset>;
      waitingForLocks: () => Promise<number>;
    }) => Promise<void>,
  ): Promise<void> {
    const url = await createTestSchema(database.url);
    // Tests here look at counter rows: none folded under them.
    const store = await openPostgresStore({ databaseUrl: url, fieldCountFolding: false });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const waitingForLocks = () => waitingForLocksSeenBy(other);
    try {
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await store.repositories.datasets.save(dataset);
      await work({ url, store, other, dataset, waitingForLocks });
    } finally {
      await other.end();
      await store.close();
    }
  }

  it("migrates once when several instances start together on an empty database", async () => {
    const stores = await instances(4);
    try {
      const workspace = aWorkspace();
      await stores[0]!.repositories.workspaces.save(workspace);
      for (const store of stores)
        expect(await store.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
    } finally {
      await closeAll(stores);
    }
  });

  it("raises the access revision for every instance, even when keys are truncated by hand", async () => {
    const stores = await instances(2);
    const url = await createTestSchema(database.url);
    const [first, second] = stores as [Store, Store];
    try {
      const workspace = aWorkspace();
      await first.repositories.workspaces.save(workspace);
      // The second instance hears of each change when its notification arrives: a moment later.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const before = await second.repositories.apiKeys.accessRevision();
      await first.repositories.workspaces.save({ ...workspace, status: "archived" });
      await expect.poll(() => second.repositories.apiKeys.accessRevision()).not.toBe(before);

      // A schema of its own, migrated, where a hand-made TRUNCATE cannot disturb the instances.
      await (await openPostgresStore({ databaseUrl: url })).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const revision = async () =>
          Number((await client.query("select value from access_revision")).rows[0].value);
        const untouched = await revision();
        await client.query("truncate api_keys");
        expect(await revision()).not.toBe(untouched);
      } finally {
        await client.end();
      }
    } finally {
      await closeAll(stores);
    }
  });

  it("answers false, not a foreign key's error, to a field created while another instance deletes its dataset", () =>
    withStoreAndOther(async ({ store, other, dataset, waitingForLocks }) => {
      await other.query("begin");
      await other.query("delete from datasets where id = $1", [dataset.id]);
      const created = store.repositories.metadata.createField(
        aMetadataField(dataset.id),
        dataset.workspaceId,
      );
      // The insert saw the dataset, and its foreign key check waits for the delete.
      await expect.poll(waitingForLocks).toBeGreaterThan(0);
      await other.query("commit");
      expect(await created).toBe(false);
    }));

  it("binds the same tags from several instances in opposite orders without a deadlock", async () => {
    const deadlocks = await deadlocksDuring(async ({ stores, workspace, targets }) => {
      const { tags } = stores[0]!.repositories;
      const tagList = Array.from({ length: 6 }, (_, index) => aTag(workspace.id, { name: `tag ${index}` }));
      for (const tag of tagList) await tags.save(tag);
      for (let round = 0; round < 5; round += 1) {
        await Promise.all(
          Array.from({ length: 24 }, (_, index) => {
            const order = index % 2 === 0 ? tagList : [...tagList].reverse();
            return stores[index % stores.length]!.repositories.tags.bindToDataset({
              workspaceId: workspace.id,
              datasetId: targets[Math.floor(index / 2) % targets.length]!.id,
              tags: order.map((tag) => ({ tagId: tag.id, bindingId: globalThis.crypto.randomUUID() })),
              createdAt: round,
            });
          }),
        );
        // The next round binds them again from nothing.
        for (const target of targets)
          await tags.unbind(
            target.id,
            tagList.map((tag) => tag.id),
          );
      }
    });
    expect(deadlocks).toBe(0);
  });

  it("unbinds and deletes the same tags from several instances, in any order, without a deadlock", async () => {
    const deadlocks = await deadlocksDuring(async ({ stores, workspace, targets }) => {
      const { tags } = stores[0]!.repositories;
      for (let round = 0; round < 6; round += 1) {
        const tagList = Array.from({ length: 8 }, () => aTag(workspace.id));
        for (const tag of tagList) await tags.save(tag);
        for (const target of targets)
          await tags.bindToDataset({
            workspaceId: workspace.id,
            datasetId: target.id,
            tags: tagList.map((tag) => ({ tagId: tag.id, bindingId: globalThis.crypto.randomUUID() })),
            createdAt: round,
          });
        const settled = await Promise.allSettled([
          ...Array.from({ length: 12 }, (_, index) => {
            const order = index % 2 === 0 ? tagList : [...tagList].reverse();
            return stores[index % stores.length]!.repositories.tags.unbindFromDataset(
              workspace.id,
              targets[index % targets.length]!.id,
              order.map((tag) => tag.id),
            );
          }),
          ...tagList.map((tag, index) =>
            stores[(index + 1) % stores.length]!.repositories.tags.delete(workspace.id, "knowledge", tag.id),
          ),
        ]);
        expect(settled.filter((result) => result.status === "rejected")).toEqual([]);
      }
      expect(await tags.listInWorkspace(workspace.id)).toEqual([]);
    });
    expect(deadlocks).toBe(0);
  }, 30_000);

  it("writes values from several instances, removing and setting in any mix, without a deadlock", async () => {
    const counting = new pg.Client({ connectionString: database.url });
    await counting.connect();
    const slotOf = async (id: string) =>
      (await counting.query("select hashtext($1) & 15 as slot", [id])).rows[0].slot as number;
    let counts: number[][] = [];
    try {
      const deadlocks = await deadlocksDuring(async ({ stores, targets }) => {
        const [dataset] = targets as [ReturnType<typeof aDataset>];
        const { documents, metadata } = stores[0]!.repositories;
        const fields = ["owner", "team", "topic"].map((name) => aMetadataField(dataset.id, { name }));
        for (const field of fields) await metadata.createField(field);
        const [owner, team, topic] = fields.map((field) => field.id) as [string, string, string];
        // Twelve documents over two slots: every write shares counter rows with others.
        const documentIds: string[] = [];
        while (documentIds.length < 12) {
          const document = aDocument(dataset.id);
          if ((await slotOf(document.id)) > 1) continue;
          await documents.save(document);
          documentIds.push(document.id);
        }
        const writes: DocumentValueChanges[] = [
          { documentId: "", replaceAll: false, set: [[owner, "a"]], clear: [team] },
          { documentId: "", replaceAll: false, set: [[team, "b"]], clear: [owner, topic] },
          { documentId: "", replaceAll: true, set: [[topic, "c"]], clear: [] },
          {
            documentId: "",
            replaceAll: false,
            set: [
              [owner, "d"],
              [topic, "d"],
            ],
            clear: [],
          },
        ];
        const settled = await Promise.allSettled(
          Array.from({ length: 12 }, async (_, writer) => {
            for (let round = 0; round < 20; round++) {
              const write = writes[(writer + round) % writes.length]!;
              const documentId = documentIds[(writer * 5 + round * 7) % documentIds.length]!;
              await stores[writer % stores.length]!.repositories.metadata.writeValues(dataset.id, [
                { ...write, documentId },
              ]);
            }
          }),
        );
        expect(settled.filter((result) => result.status === "rejected")).toEqual([]);
        const held = (await Promise.all(documentIds.map((id) => metadata.valuesOf(id)))).flat();
        const truth = fields.map((field) => held.filter((value) => value.id === field.id).length);
        counts = [(await metadata.listFieldUsage(dataset.id)).map((field) => field.count), truth];
      });
      expect(deadlocks).toBe(0);
      expect(counts[0]).toEqual(counts[1]);
    } finally {
      await counting.end();
    }
  }, 30_000);

  it("leaves one binding per pair when instances bind the same tags at once", async () => {
    const stores = await instances(3);
    try {
      const { workspaces, datasets, tags } = stores[0]!.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const tagList = Array.from({ length: 5 }, (_, index) => aTag(workspace.id, { name: `tag ${index}` }));
      for (const tag of tagList) await tags.save(tag);
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          stores[index % stores.length]!.repositories.tags.bind(
            tagList.map((tag) => ({
              id: globalThis.crypto.randomUUID(),
              workspaceId: workspace.id,
              tagId: tag.id,
              targetId: dataset.id,
              createdAt: index,
            })),
          ),
        ),
      );
      expect((await tags.boundTagIds(dataset.id)).sort()).toEqual(tagList.map((tag) => tag.id).sort());
    } finally {
      await closeAll(stores);
    }
  });

  it("skips a value whose field was deleted while the value write waited for the dataset's lock", () =>
    withStoreAndOther(async ({ store, other, dataset }) => {
      const { documents, metadata } = store.repositories;
      const document = aDocument(dataset.id);
      await documents.save(document);
      const [gone, kept] = [
        aMetadataField(dataset.id, { name: "gone" }),
        aMetadataField(dataset.id, { name: "kept" }),
      ];
      for (const field of [gone, kept]) await metadata.createField(field);

      // Another instance deletes the field, holding the dataset's lock first as a field delete does.
      await other.query("begin");
      await other.query("select id from datasets where id = $1 for update", [dataset.id]);
      const writing = metadata.writeValues(dataset.id, [
        {
          documentId: document.id,
          replaceAll: false,
          set: [
            [gone.id, "x"],
            [kept.id, "y"],
          ],
          clear: [],
        },
      ]);
      // The write has taken its snapshot and waits for the lock.
      await expect.poll(() => waitingForLocksSeenBy(other)).toBeGreaterThan(0);
      await other.query("delete from metadata_fields where id = $1", [gone.id]);
      await other.query("commit");

      await writing;
      expect(await metadata.valuesOf(document.id)).toEqual([
        { id: kept.id, name: "kept", type: "string", value: "y" },
      ]);
    }));

  it("lets value writes to different documents of a dataset run together, and to one document in turn", () =>
    withStoreAndOther(async ({ store, other, dataset, waitingForLocks }) => {
      const { documents, metadata } = store.repositories;
      const [first, second] = [aDocument(dataset.id), aDocument(dataset.id)];
      for (const document of [first, second]) await documents.save(document);
      const field = aMetadataField(dataset.id, { name: "owner" });
      await metadata.createField(field);
      const write = (documentId: string, value: string) =>
        metadata.writeValues(dataset.id, [
          { documentId, replaceAll: false, set: [[field.id, value]], clear: [] },
        ]);

      // Another instance's value write to the first document, not yet committed: its locks held.
      await other.query("begin");
      await other.query(
        `with locked as (select id from datasets where id = $1 for share)
         select id from documents where dataset_id = (select id from locked) and id = $2 for no key update`,
        [dataset.id, first.id],
      );
      await write(second.id, "b");
      expect(await metadata.valuesOf(second.id)).toMatchObject([{ value: "b" }]);
      const waiting = write(first.id, "a");
      await expect.poll(waitingForLocks).toBeGreaterThan(0);
      await other.query("commit");
      await waiting;
      expect(await metadata.valuesOf(first.id)).toMatchObject([{ value: "a" }]);
    }));

  it("queues a value write behind a field delete that waits for the dataset, not past it", () =>
    withStoreAndOther(async ({ store, dataset, waitingForLocks }) => {
      const { documents, metadata } = store.repositories;
      const [first, second] = [aDocument(dataset.id), aDocument(dataset.id)];
      for (const document of [first, second]) await documents.save(document);
      const [gone, kept] = [
        aMetadataField(dataset.id, { name: "gone" }),
        aMetadataField(dataset.id, { name: "kept" }),
      ];
      for (const field of [gone, kept]) await metadata.createField(field);
      const finished: string[] = [];

      // A value write to the first document, its transaction held open: it holds the dataset shared.
      const holder = heldTransaction(store, ({ metadata: inTransaction }) =>
        inTransaction.writeValues(dataset.id, [
          { documentId: first.id, replaceAll: false, set: [[kept.id, "1"]], clear: [] },
        ]),
      );
      await holder.holding;
      let deleting: Promise<boolean> | undefined;
      let later: Promise<unknown> | undefined;
      try {
        deleting = metadata.deleteField(dataset.id, gone.id).then((deleted) => {
          finished.push("delete");
          return deleted;
        });
        await expect.poll(waitingForLocks).toBe(1);
        // A row's shared lock is granted past a waiting exclusive one: this write would finish
        // now, and a stream of such writes keeps the delete waiting. It waits behind it instead.
        later = metadata
          .writeValues(dataset.id, [
            {
              documentId: second.id,
              replaceAll: false,
              set: [
                [gone.id, "x"],
                [kept.id, "2"],
              ],
              clear: [],
            },
          ])
          .then(() => finished.push("write"));
        // Waiting while the holder, whose locks it shares, still holds: queued behind the delete,
        // the only one waiting for a lock it conflicts with.
        await expect.poll(waitingForLocks).toBe(2);
        expect(finished).toEqual([]);
      } finally {
        holder.release();
        await Promise.all([holder.ended, deleting, later]);
      }
      // Which answer arrives first is not the order they committed in: each comes on its own
      // connection, the delete's sent after it let the write go (two connections raced here once).
      expect(await deleting).toBe(true);
      expect(finished.sort()).toEqual(["delete", "write"]);
      // The write, after the delete, passes over the deleted field's value.
      expect(await metadata.valuesOf(second.id)).toEqual([
        { id: kept.id, name: "kept", type: "string", value: "2" },
      ]);
    }));

  it("creates a field while another write holds the dataset alone: its lock leaves the key to others", () =>
    withStoreAndOther(async ({ store, dataset }) => {
      const holder = heldTransaction(store, ({ datasets }) => datasets.lockForUpdate(dataset.id));
      try {
        await holder.holding;
        // The new field's foreign key locks the dataset's key (`FOR KEY SHARE`), which `FOR UPDATE`
        // would hold back until the other write ends.
        const field = aMetadataField(dataset.id, { name: "meanwhile" });
        const waited = new Promise((resolve) => setTimeout(resolve, 3_000, "still waiting"));
        expect(await Promise.race([store.repositories.metadata.createField(field), waited])).toBe(true);
      } finally {
        holder.release();
        await holder.ended;
      }
    }));

  it("replaces a document's values after a concurrent write to it, seeing the values that write added", () =>
    withStoreAndOther(async ({ store, other, dataset, waitingForLocks }) => {
      const { documents, metadata } = store.repositories;
      const document = aDocument(dataset.id);
      await documents.save(document);
      const [kept, added] = ["kept", "added"].map((name) => aMetadataField(dataset.id, { name })) as [
        ReturnType<typeof aMetadataField>,
        ReturnType<typeof aMetadataField>,
      ];
      for (const field of [kept, added]) await metadata.createField(field);

      // Another instance's value write to the document, not yet committed: it adds a value.
      await other.query("begin");
      await other.query(
        `with locked as (select id from datasets where id = $1 for share)
         select id from documents where dataset_id = (select id from locked) and id = $2 for no key update`,
        [dataset.id, document.id],
      );
      await other.query("insert into document_metadata_values values ($1, $2, 'x')", [document.id, added.id]);
      // This one replaces every value with `kept` alone: it runs after, so `added` goes.
      const replacing = metadata.writeValues(dataset.id, [
        { documentId: document.id, replaceAll: true, set: [[kept.id, "y"]], clear: [] },
      ]);
      await expect.poll(waitingForLocks).toBeGreaterThan(0);
      await other.query("commit");
      await replacing;
      expect(await metadata.valuesOf(document.id)).toEqual([
        { id: kept.id, name: "kept", type: "string", value: "y" },
      ]);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => field.count)).toEqual([1, 0]);
    }));

  it(
    "counts a field's values in rows chosen by document, so writes to different documents do not wait on one counter",
    () =>
      withStoreAndOther(async ({ store, other, dataset }) => {
        const slotOf = async (id: string) =>
          (await other.query("select hashtext($1) & 15 as slot", [id])).rows[0].slot as number;
        const { documents, metadata } = store.repositories;
        const first = aDocument(dataset.id);
        let second = aDocument(dataset.id);
        while ((await slotOf(second.id)) === (await slotOf(first.id))) second = aDocument(dataset.id);
        // Its value is counted in the field's own row: its slot has no row of its own.
        let old = aDocument(dataset.id);
        const taken = [await slotOf(first.id), await slotOf(second.id)];
        while (taken.includes(await slotOf(old.id))) old = aDocument(dataset.id);
        for (const document of [first, second, old]) await documents.save(document);
        const field = aMetadataField(dataset.id, { name: "owner" });
        await metadata.createField(field);
        // A value counted in the field's own row, as a bulk load with the triggers off counts it.
        await other.query("set session_replication_role = replica");
        await other.query("insert into document_metadata_values values ($1, $2, 'old')", [old.id, field.id]);
        await other.query("update metadata_fields set document_count = 1 where id = $1", [field.id]);
        await other.query("set session_replication_role = origin");
        const write = (documentId: string, set: [string, string][], clear: string[] = []) =>
          metadata.writeValues(dataset.id, [{ documentId, replaceAll: false, set, clear }]);

        // Another instance's new value for the first document, not yet committed: its counter row held.
        await other.query("begin");
        await other.query("insert into document_metadata_values values ($1, $2, 'a')", [first.id, field.id]);
        // Before, this waited for that commit at the field's row.
        await write(second.id, [[field.id, "b"]]);
        await other.query("commit");
        const count = async () => (await metadata.listFieldUsage(dataset.id))[0]?.count;
        expect(await count()).toBe(3);
        await write(old.id, [], [field.id]);
        expect(await count()).toBe(2);
        const { rows } = await other.query(
          "select document_count::int as base, (select count(*)::int from metadata_field_counts where field_id = $1) as slots from metadata_fields where id = $1",
          [field.id],
        );
        // The removal took one in its slot's row, made for it (the write takes its rows in order
        // first); the field's own row, which writes to other slots could wait behind, was left alone.
        expect(rows[0]).toEqual({ base: 1, slots: 3 });
        await metadata.deleteField(dataset.id, field.id);
        expect((await other.query("select count(*)::int as n from metadata_field_counts")).rows[0].n).toBe(0);
      }),
    15_000,
  );

  it("binds tags while another instance deletes one, passing over the deleted tag", async () => {
    const url = await createTestSchema(database.url);
    const sent: string[] = [];
    const store = await openPostgresStore({
      databaseUrl: url,
      fieldCountFolding: false,
      onQuery: (sql) => sent.push(sql),
    });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const { workspaces, datasets, tags } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const asked = [aTag(workspace.id), aTag(workspace.id), aTag(workspace.id)];
      for (const tag of asked) await tags.save(tag);
      const [gone, ...kept] = asked as [Tagged, Tagged, Tagged];
      // Another instance deletes a tag, not yet committed: the binding waits for it.
      await other.query("begin");
      await other.query("delete from tags where id = $1", [gone.id]);
      sent.length = 0;
      const binding = tags.bindToDataset({
        workspaceId: workspace.id,
        datasetId: dataset.id,
        tags: asked.map((tag) => ({ tagId: tag.id, bindingId: crypto.randomUUID() })),
        createdAt: 1_700_000_000,
      });
      await expect.poll(() => waitingForLocksSeenBy(other)).toBeGreaterThan(0);
      await other.query("commit");
      expect(await binding).toBe(true);
      // Found missing by the foreign key, then passed over where the tags are read, locked.
      expect(sent).toHaveLength(2);
      expect(sent[0]).not.toMatch(/for key share/);
      expect(sent[1]).toMatch(/for key share of "tag"/);
      const { rows } = await other.query(
        "select tag_id from tag_bindings where target_id = $1 order by tag_id",
        [dataset.id],
      );
      expect(rows.map((row) => row.tag_id)).toEqual(kept.map((tag) => tag.id).sort());
    } finally {
      await other.end();
      await store.close();
    }
  });

  it("answers every bind while tags are deleted from two instances, none failing", async () => {
    const stores = await instances(2);
    try {
      const { workspaces, datasets, tags } = stores[0]!.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      for (let round = 0; round < 5; round++) {
        const asked = Array.from({ length: 10 }, () => aTag(workspace.id));
        for (const tag of asked) await tags.save(tag);
        const binds = Array.from({ length: 16 }, (_, index) =>
          stores[index % 2]!.repositories.tags.bindToDataset({
            workspaceId: workspace.id,
            datasetId: dataset.id,
            tags: asked.map((tag) => ({ tagId: tag.id, bindingId: crypto.randomUUID() })),
            createdAt: 1_700_000_000,
          }),
        );
        const deletes = asked.map((tag, index) =>
          stores[index % 2]!.repositories.tags.delete(workspace.id, "knowledge", tag.id),
        );
        const settled = await Promise.allSettled([...binds, ...deletes]);
        expect(settled.filter((result) => result.status === "rejected")).toEqual([]);
      }
      // Every tag went, and its bindings with it.
      expect(await tags.listInWorkspace(workspace.id)).toEqual([]);
      expect(await tags.boundTagIds(dataset.id)).toEqual([]);
    } finally {
      await closeAll(stores);
    }
  }, 30_000);

  it("takes a removing write's counter rows in one order, so writes clearing and setting in one slot never deadlock", () =>
    withStoreAndOther(async ({ url, store, other, dataset, waitingForLocks }) => {
      const slotOf = async (id: string) =>
        (await other.query("select hashtext($1) & 15 as slot", [id])).rows[0].slot as number;
      const { documents, metadata } = store.repositories;
      const first = aDocument(dataset.id);
      let second = aDocument(dataset.id);
      while ((await slotOf(second.id)) !== (await slotOf(first.id))) second = aDocument(dataset.id);
      for (const document of [first, second]) await documents.save(document);
      const [owner, team] = [
        aMetadataField(dataset.id, { name: "owner" }),
        aMetadataField(dataset.id, { name: "team" }),
      ];
      for (const field of [owner, team]) await metadata.createField(field);
      const write = (documentId: string, set: [string, string][], clear: string[] = []) =>
        metadata.writeValues(dataset.id, [{ documentId, replaceAll: false, set, clear }]);
      // Both fields' counter rows of the documents' slot exist.
      await write(first.id, [[team.id, "t"]]);
      await write(second.id, [[owner.id, "o"]]);
      // Two instances' calls, each removing one field's value and setting the other's.
      const [one, two] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
      await Promise.all([one.connect(), two.connect()]);
      const call = (client: pg.Client, documentId: string, set: string, cleared: string) =>
        client.query("select write_document_values($1, $2, $3, $4, '{}', '[]')", [
          dataset.id,
          [documentId],
          JSON.stringify([[documentId, set, "x"]]),
          JSON.stringify([[documentId, cleared]]),
        ]);
      try {
        // Holding `owner`'s row stops the first call's new value at its foreign key check: after
        // its removal, the counter row of `team` it took then still held.
        await other.query("begin");
        await other.query("select from metadata_fields where id = $1 for update", [owner.id]);
        const firstCall = call(one, first.id, owner.id, team.id);
        await expect.poll(waitingForLocks).toBe(1);
        // The second removes `owner`'s value (its counter row) and sets `team`'s: the other order.
        const secondCall = call(two, second.id, team.id, owner.id);
        await expect.poll(waitingForLocks).toBe(2);
        await other.query("commit");
        const settled = await Promise.allSettled([firstCall, secondCall]);
        expect(
          settled.map((outcome) => (outcome.status === "rejected" ? String(outcome.reason) : "written")),
        ).toEqual(["written", "written"]);
      } finally {
        await Promise.all([one.end(), two.end()]);
      }
      expect(await metadata.valuesOf(first.id)).toMatchObject([{ id: owner.id, value: "x" }]);
      expect(await metadata.valuesOf(second.id)).toMatchObject([{ id: team.id, value: "x" }]);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => field.count)).toEqual([1, 1]);
    }));

  it("writes a removing write after its locks, so concurrent writes to a document end as one after the other", async () => {
    const url = await createTestSchema(database.url);
    const sent: string[] = [];
    const stores = await Promise.all([
      openPostgresStore({ databaseUrl: url, fieldCountFolding: false, onQuery: (sql) => sent.push(sql) }),
      openPostgresStore({ databaseUrl: url }),
    ]);
    try {
      const [first, second] = stores as [Store, Store];
      const { workspaces, datasets, documents, metadata } = first.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const [one, two] = [
        aMetadataField(dataset.id, { name: "one" }),
        aMetadataField(dataset.id, { name: "two" }),
      ];
      for (const field of [one, two]) await metadata.createField(field);
      const document = aDocument(dataset.id);
      await documents.save(document);
      const setting = {
        documentId: document.id,
        replaceAll: false,
        set: [
          [one.id, "a"],
          [two.id, "a"],
        ] as [string, string][],
        clear: [],
      };
      const clearing = {
        documentId: document.id,
        replaceAll: false,
        set: [[two.id, "b"]] as [string, string][],
        clear: [one.id],
      };

      // One call, which waits for the locks and then writes in statements whose snapshots follow them.
      sent.length = 0;
      await metadata.writeValues(dataset.id, [clearing]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^select write_document_values\(/);
      // Only setting, one statement still.
      sent.length = 0;
      await metadata.writeValues(dataset.id, [setting]);
      expect(sent).toHaveLength(1);

      // Either order is right; a mix of the two (the clear lost, the set kept) is not.
      const outcomes = new Set<string>();
      for (let trial = 0; trial < 1000; trial++) {
        await metadata.writeValues(dataset.id, [
          { documentId: document.id, replaceAll: true, set: [], clear: [] },
        ]);
        await Promise.all([
          first.repositories.metadata.writeValues(dataset.id, [setting]),
          second.repositories.metadata.writeValues(dataset.id, [clearing]),
        ]);
        const values = await metadata.valuesOf(document.id);
        outcomes.add(JSON.stringify(Object.fromEntries(values.map((value) => [value.name, value.value]))));
      }
      expect(
        [...outcomes].filter((outcome) => !['{"two":"b"}', '{"one":"a","two":"a"}'].includes(outcome)),
      ).toEqual([]);
    } finally {
      await closeAll(stores);
    }
  }, 60_000);

  it("ends concurrent updates of a variable from several instances with one value, whole", async () => {
    const stores = await instances(3);
    try {
      const { workspaces, apps, endUsers, conversations } = stores[0]!.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const app = anApp(workspace.id);
      await apps.save(app);
      const endUser = anEndUser(app.id);
      await endUsers.save(endUser);
      const conversation = aConversation(app.id, endUser.id);
      await conversations.save(conversation);
      const variable = aVariable(conversation.id, { valueType: "array[number]", value: [] });
      await conversations.saveVariable(variable);
      const values = Array.from({ length: 24 }, (_, index) => Array.from({ length: 200 }, () => index));
      await Promise.all(
        values.map((value, index) =>
          stores[index % stores.length]!.repositories.conversations.updateVariableValue(
            conversation.id,
            variable.id,
            value,
            index,
          ),
        ),
      );
      const stored = await conversations.findVariable(conversation.id, variable.id);
      expect(values).toContainEqual(stored?.value);
    } finally {
      await closeAll(stores);
    }
  });
});
