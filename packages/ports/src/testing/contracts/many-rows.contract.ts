import { describe, expect, it } from "vitest";
import type { Repositories, Store } from "../../repositories.js";
import { aDataset, aDocument, aMetadataField, aTag, aWorkspace } from "../fixtures.js";
import type { OpenStore } from "./use-store.js";

/** One workspace's dataset, with documents, a field's values and a tag's binding already stored. */
async function aStoredWorld(repositories: Repositories) {
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  const other = aDataset(workspace.id);
  for (const saved of [dataset, other]) await repositories.datasets.save(saved);
  const field = aMetadataField(dataset.id);
  await repositories.metadata.saveField(field);
  const tags = [aTag(workspace.id), aTag(workspace.id)];
  for (const tag of tags) await repositories.tags.save(tag);
  const stored = [
    aDocument(dataset.id, { position: 1, wordCount: 10 }),
    aDocument(dataset.id, { position: 2, wordCount: 20, enabled: false }),
    aDocument(dataset.id, { position: 3, wordCount: 30, archived: true }),
  ];
  for (const document of stored) {
    await repositories.documents.save(document);
    await repositories.metadata.setValue(document.id, field.id, "before");
  }
  await repositories.tags.bind([binding(workspace.id, tags[0]!.id, other.id)]);
  return { workspace, dataset, other, field, tags, stored };
}

type World = Awaited<ReturnType<typeof aStoredWorld>>;

const binding = (workspaceId: string, tagId: string, targetId: string) => ({
  id: globalThis.crypto.randomUUID(),
  workspaceId,
  tagId,
  targetId,
  createdAt: 1,
});

/** Every kind of counted write: documents added, changed, moved out of a count and deleted, values, bindings. */
async function writeMany(
  { workspace, dataset, other, field, tags, stored }: World,
  repositories: Repositories,
) {
  const added = aMetadataField(dataset.id);
  await repositories.metadata.saveField(added);
  for (let index = 0; index < 40; index += 1) {
    const document = aDocument(dataset.id, {
      position: 4 + index,
      wordCount: index,
      enabled: index % 3 !== 0,
      archived: index % 5 === 0,
    });
    await repositories.documents.save(document);
    await repositories.metadata.setValue(document.id, field.id, `v${index}`);
    if (index % 2 === 0) await repositories.metadata.setValue(document.id, added.id, "x");
    if (index === 7) await repositories.metadata.clearValue(document.id, field.id);
  }
  await repositories.documents.save({ ...stored[0]!, wordCount: 1_000, enabled: false });
  await repositories.documents.save({ ...stored[1]!, enabled: true });
  await repositories.metadata.setValue(stored[0]!.id, field.id, "after");
  await repositories.metadata.clearValues(stored[1]!.id);
  expect(await repositories.documents.delete(dataset.id, stored[2]!.id, { archived: true })).toBe(true);
  await repositories.tags.bind([
    binding(workspace.id, tags[1]!.id, other.id),
    binding(workspace.id, tags[0]!.id, dataset.id),
    binding(workspace.id, tags[1]!.id, dataset.id),
  ]);
  await repositories.tags.unbind(other.id, [tags[0]!.id]);
}

const byValue = (a: number, b: number) => a - b;

/** Every count the store keeps of the world, as its readers see it (the lists in order of size). */
async function countsOf(store: Store, { workspace, dataset, other }: World) {
  const { datasets, metadata, tags } = store.repositories;
  return {
    dataset: (await datasets.findOverview(workspace.id, dataset.id))?.counts,
    other: (await datasets.findOverview(workspace.id, other.id))?.counts,
    fields: (await metadata.listFieldUsage(dataset.id)).map(({ count }) => count).sort(byValue),
    tags: (await tags.listCounted(workspace.id, "knowledge"))
      .map(({ bindingCount }) => bindingCount)
      .sort(byValue),
  };
}

/**
 * A transaction of many rows (`manyRows`, an import's) may count once, at its end: what it leaves
 * is what the same writes leave in any transaction.
 */
export function describeManyRowsContract(openStore: OpenStore): void {
  describe("Store transaction of many rows contract", () => {
    it("leaves every count as the same writes leave it in any transaction", async () => {
      const store = await openStore();
      try {
        const counted = async (manyRows: boolean) => {
          const world = await aStoredWorld(store.repositories);
          await store.transaction((repositories) => writeMany(world, repositories), { manyRows });
          return countsOf(store, world);
        };
        const once = await counted(true);
        expect(once).toEqual(await counted(false));
        // Known by hand, so that both cannot be wrong together: 2 stored (one deleted) and 40 added;
        // available: the first stored document disabled, the second enabled, 40 added less the
        // disabled (every third) and archived (every fifth) ones.
        const availableAdded = Array.from({ length: 40 }, (_, i) => i % 3 !== 0 && i % 5 !== 0).filter(
          Boolean,
        ).length;
        expect(once.dataset).toEqual({
          documents: 42,
          availableDocuments: 1 + availableAdded,
          words: 1_000 + 20 + (39 * 40) / 2,
        });
        expect(once.other).toMatchObject({ documents: 0 });
        expect(once.fields).toEqual([20, 40]);
        expect(once.tags).toEqual([1, 2]);
      } finally {
        await store.close();
      }
    });

    it("leaves every count as it was when it rejects", async () => {
      const store = await openStore();
      try {
        const world = await aStoredWorld(store.repositories);
        const before = await countsOf(store, world);
        const failure = new Error("roll back");
        await expect(
          store.transaction(
            async (repositories) => {
              await writeMany(world, repositories);
              throw failure;
            },
            { manyRows: true },
          ),
        ).rejects.toBe(failure);
        expect(await countsOf(store, world)).toEqual(before);
        // And the store counts on as before.
        await store.repositories.documents.save(aDocument(world.dataset.id, { position: 9, wordCount: 5 }));
        expect((await countsOf(store, world)).dataset).toEqual({
          documents: 4,
          availableDocuments: 2,
          words: 65,
        });
      } finally {
        await store.close();
      }
    });
  });
}
