import type { TagBinding } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aDataset, aTag, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeTagRepositoryContract(openStore: OpenStore): void {
  describe("TagRepository contract", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, datasets, tags } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const [first, second] = [
        aTag(workspace.id, { name: "a" }),
        aTag(workspace.id, { name: "b", type: "app" }),
      ];
      await tags.save(first);
      await tags.save(second);
      const binding = (tagId: string, createdAt = 1): TagBinding => ({
        id: globalThis.crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId,
        targetId: dataset.id,
        createdAt,
      });
      return { dataset, first, second, binding };
    }

    it("finds the tags that exist among the ids asked for", async () => {
      const { tags } = repositories();
      const { first, second } = await seed();
      const found = await tags.findByIds([second.id, "unknown", first.id, first.id]);
      expect(found.sort((a, b) => a.name.localeCompare(b.name))).toEqual([first, second]);
      expect(await tags.findByIds([])).toEqual([]);
    });

    it("binds to the workspace's dataset only its knowledge tags among those asked, checking the dataset as it writes", async () => {
      const { tags, workspaces } = repositories();
      const { dataset, first, second } = await seed();
      const stranger = aWorkspace();
      await workspaces.save(stranger);
      const foreign = aTag(stranger.id, { name: "a" });
      await tags.save(foreign);
      const asked = (ids: string[]) =>
        ids.map((tagId) => ({ tagId, bindingId: globalThis.crypto.randomUUID() }));
      const binding = (workspaceId: string, ids: string[]) => ({
        workspaceId,
        datasetId: dataset.id,
        tags: asked(ids),
        createdAt: 1,
      });

      expect(await tags.bindToDataset(binding(stranger.id, [foreign.id]))).toBe(false);
      expect(
        await tags.bindToDataset(binding(dataset.workspaceId, [second.id, "unknown", first.id, foreign.id])),
      ).toBe(true);
      expect(await tags.boundTagIds(dataset.id)).toEqual([first.id]);
      // Again: the pair keeps its binding, counted once.
      expect(await tags.bindToDataset(binding(dataset.workspaceId, [first.id]))).toBe(true);
      expect(await tags.bindToDataset(binding(dataset.workspaceId, []))).toBe(true);
      expect((await tags.findInWorkspace(dataset.workspaceId, "knowledge", first.id))?.bindingCount).toBe(1);
      expect(
        await tags.bindToDataset({ ...binding(dataset.workspaceId, [first.id]), datasetId: "unknown" }),
      ).toBe(false);
    });

    it("unbinds from the workspace's dataset only its knowledge tags among those asked, checking the dataset as it writes", async () => {
      const { tags, workspaces } = repositories();
      const { dataset, first, second, binding } = await seed();
      const stranger = aWorkspace();
      await workspaces.save(stranger);
      const foreign = aTag(stranger.id, { name: "a" });
      await tags.save(foreign);
      await tags.bind([
        binding(first.id),
        binding(second.id),
        { ...binding(foreign.id), workspaceId: stranger.id },
      ]);

      expect(await tags.unbindFromDataset(stranger.id, dataset.id, [first.id, foreign.id])).toBe(false);
      expect(await tags.boundTagIds(dataset.id)).toHaveLength(3);
      expect(
        await tags.unbindFromDataset(dataset.workspaceId, dataset.id, [
          second.id,
          foreign.id,
          "unknown",
          first.id,
        ]),
      ).toBe(true);
      expect(await tags.boundTagIds(dataset.id)).toEqual([second.id, foreign.id].sort());
      expect((await tags.findInWorkspace(dataset.workspaceId, "knowledge", first.id))?.bindingCount).toBe(0);
      expect(await tags.unbindFromDataset(dataset.workspaceId, dataset.id, [first.id])).toBe(true);
      expect(await tags.unbindFromDataset(dataset.workspaceId, dataset.id, [])).toBe(true);
      expect(await tags.unbindFromDataset(dataset.workspaceId, "unknown", [])).toBe(false);
    });

    it("binds tags to a target, listed by id", async () => {
      const { tags } = repositories();
      const { dataset, first, second, binding } = await seed();
      const [low, high] = [first.id, second.id].sort();
      await tags.bind([binding(high!), binding(low!)]);
      expect(await tags.boundTagIds(dataset.id)).toEqual([low, high]);
    });

    it("binds the same tags concurrently, in any order given, either way, without failing, and counts each pair once", async () => {
      const { tags, workspaces, datasets } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const targets = [aDataset(workspace.id), aDataset(workspace.id)];
      for (const target of targets) await datasets.save(target);
      const many = Array.from({ length: 8 }, (_, index) => aTag(workspace.id, { name: `t${index}` }));
      for (const tag of many) await tags.save(tag);
      const ids = many.map((tag) => tag.id);
      // Half through `bind`, half as Create Tag Binding binds (`bindToDataset`), each way in both orders.
      const binds = Array.from({ length: 120 }, (_, index) => {
        const order = index % 2 === 0 ? ids : [...ids].reverse();
        const targetId = targets[index % 3 === 0 ? 0 : 1]!.id;
        if (index % 4 < 2) {
          const asked = order.map((tagId) => ({ tagId, bindingId: globalThis.crypto.randomUUID() }));
          return tags.bindToDataset({
            workspaceId: workspace.id,
            datasetId: targetId,
            tags: asked,
            createdAt: 1,
          });
        }
        return tags.bind(
          order.map((tagId) => ({
            id: globalThis.crypto.randomUUID(),
            workspaceId: workspace.id,
            tagId,
            targetId,
            createdAt: 1,
          })),
        );
      });
      await Promise.all(binds);
      for (const target of targets) expect(await tags.boundTagIds(target.id)).toEqual([...ids].sort());
      const counted = await tags.listCounted(workspace.id, "knowledge");
      expect(counted.map((tag) => tag.bindingCount)).toEqual(ids.map(() => 2));
    });

    it("keeps one binding per pair when the same pair is bound again", async () => {
      const { tags } = repositories();
      const { dataset, first, second, binding } = await seed();
      await tags.bind([binding(first.id)]);
      await tags.bind([binding(first.id), binding(second.id), binding(second.id)]);
      expect(await tags.boundTagIds(dataset.id)).toEqual([first.id, second.id].sort());
    });

    it("keeps one binding per pair under concurrent calls", async () => {
      const { tags } = repositories();
      const { dataset, first, second, binding } = await seed();
      await Promise.all(Array.from({ length: 20 }, () => tags.bind([binding(first.id), binding(second.id)])));
      expect((await tags.boundTagIds(dataset.id)).sort()).toEqual([first.id, second.id].sort());
    });

    it("accepts an empty list of bindings", async () => {
      const { tags } = repositories();
      const { dataset } = await seed();
      await tags.bind([]);
      expect(await tags.boundTagIds(dataset.id)).toEqual([]);
    });

    it("saves a tag unless its id is another workspace's, its stored type differs or its name is taken", async () => {
      const { workspaces, tags } = repositories();
      const [mine, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(mine);
      await workspaces.save(other);
      const [tag, holder] = [aTag(mine.id, { name: "a" }), aTag(mine.id, { name: "b" })];
      expect(await tags.save(tag)).toBeUndefined();
      expect(await tags.save(holder)).toBeUndefined();
      expect(await tags.save({ ...tag, name: "renamed", createdAt: 5 })).toBeUndefined();
      expect(await tags.save({ ...tag, workspaceId: other.id })).toBe("owned_elsewhere");
      expect(await tags.save({ ...tag, type: "app" })).toBe("type_differs");
      expect(await tags.save({ ...tag, name: "b" })).toBe("name_taken");
      expect(await tags.save(aTag(mine.id, { name: "b" }))).toBe("name_taken");
      const [ofApps, elsewhere] = [aTag(mine.id, { name: "b", type: "app" }), aTag(other.id, { name: "b" })];
      expect(await tags.save(ofApps)).toBeUndefined();
      expect(await tags.save(elsewhere)).toBeUndefined();
      expect(await tags.listInWorkspace(mine.id)).toEqual([
        ofApps,
        holder,
        { ...tag, name: "renamed", createdAt: 5 },
      ]);
      expect(await tags.listInWorkspace(other.id)).toEqual([elsewhere]);
    });

    it("lists a workspace's tags by type, then name", async () => {
      const { tags, workspaces } = repositories();
      const { first, second } = await seed();
      const another = aTag(first.workspaceId, { name: "0-first", type: "knowledge" });
      await tags.save(another);
      const elsewhere = aWorkspace();
      await workspaces.save(elsewhere);
      await tags.save(aTag(elsewhere.id, { name: "elsewhere" }));
      expect(await tags.listInWorkspace(first.workspaceId)).toEqual([second, another, first]);
    });
  });
}
