import type { TagBinding } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aDataset, aTag, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** What tag management needs of a TagRepository: unique names, counts, renames, deletes, unbinding. */
export function describeTagManagementContract(openStore: OpenStore): void {
  describe("TagRepository contract: management", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, datasets } = repositories();
      const [workspace, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(workspace);
      await workspaces.save(other);
      const targets = [aDataset(workspace.id), aDataset(workspace.id)] as const;
      for (const dataset of targets) await datasets.save(dataset);
      const binding = (tagId: string, targetId: string): TagBinding => ({
        id: globalThis.crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId,
        targetId,
        createdAt: 1,
      });
      return { workspace, other, targets, binding };
    }

    it("creates a tag unless its workspace has one of its type with its name, exactly", async () => {
      const { tags } = repositories();
      const { workspace, other } = await seed();
      expect(await tags.create(aTag(workspace.id, { name: "finance" }))).toBe(true);
      expect(await tags.create(aTag(workspace.id, { name: "finance" }))).toBe(false);
      expect(await tags.create(aTag(workspace.id, { name: "Finance" }))).toBe(true);
      expect(await tags.create(aTag(workspace.id, { name: "finance", type: "app" }))).toBe(true);
      expect(await tags.create(aTag(other.id, { name: "finance" }))).toBe(true);
      expect((await tags.listCounted(workspace.id, "knowledge")).map((tag) => tag.name).sort()).toEqual([
        "Finance",
        "finance",
      ]);
    });

    it("lets exactly one of concurrent creates of one name succeed", async () => {
      const { tags } = repositories();
      const { workspace } = await seed();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => tags.create(aTag(workspace.id, { name: "race" }))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await tags.listCounted(workspace.id, "knowledge")).toHaveLength(1);
    });

    it("lists one type's tags newest first with their binding counts, kept in step with every write", async () => {
      const { tags } = repositories();
      const { workspace, targets, binding } = await seed();
      const older = aTag(workspace.id, { name: "a", createdAt: 10 });
      const newest = aTag(workspace.id, { name: "b", createdAt: 30 });
      const ties = [
        aTag(workspace.id, { name: "c", createdAt: 20 }),
        aTag(workspace.id, { name: "d", createdAt: 20 }),
      ];
      for (const tag of [older, newest, ...ties, aTag(workspace.id, { name: "bots", type: "app" })])
        await tags.create(tag);
      await tags.bind([binding(older.id, targets[0].id), binding(older.id, targets[1].id)]);
      await tags.bind([binding(older.id, targets[0].id), binding(newest.id, targets[0].id)]);
      const tiesById = ties.map((tag) => tag.id).sort();
      expect(
        (await tags.listCounted(workspace.id, "knowledge")).map((tag) => [tag.id, tag.bindingCount]),
      ).toEqual([
        [newest.id, 1],
        [tiesById[0], 0],
        [tiesById[1], 0],
        [older.id, 2],
      ]);
      await tags.unbind(targets[1].id, [older.id, "not-a-tag"]);
      expect(await tags.findInWorkspace(workspace.id, "knowledge", older.id)).toEqual({
        ...older,
        bindingCount: 1,
      });
    });

    it("finds a tag only in its workspace and type", async () => {
      const { tags } = repositories();
      const { workspace, other } = await seed();
      const tag = aTag(workspace.id);
      await tags.create(tag);
      expect(await tags.findInWorkspace(other.id, "knowledge", tag.id)).toBeUndefined();
      expect(await tags.findInWorkspace(workspace.id, "app", tag.id)).toBeUndefined();
      expect(await tags.findInWorkspace(workspace.id, "knowledge", "missing")).toBeUndefined();
    });

    it("renames a tag, to its own name too, but not to another's of its kind", async () => {
      const { tags } = repositories();
      const { workspace, other, targets, binding } = await seed();
      const [first, second] = [aTag(workspace.id, { name: "a" }), aTag(workspace.id, { name: "b" })];
      await tags.create(first);
      await tags.create(second);
      await tags.bind([binding(first.id, targets[0].id)]);
      const rename = (name: string) => tags.rename(workspace.id, "knowledge", first.id, name);
      expect(await rename("a")).toEqual({ ...first, bindingCount: 1 });
      expect(await rename("b")).toBe("name_taken");
      expect(await tags.rename(other.id, "knowledge", first.id, "x")).toBe("not_found");
      expect(await tags.rename(workspace.id, "app", first.id, "x")).toBe("not_found");
      expect(await tags.rename(workspace.id, "knowledge", "missing", "x")).toBe("not_found");
      expect(await rename("c")).toEqual({ ...first, name: "c", bindingCount: 1 });
      expect((await tags.findInWorkspace(workspace.id, "knowledge", first.id))?.name).toBe("c");
      expect((await tags.findInWorkspace(workspace.id, "knowledge", second.id))?.name).toBe("b");
    });

    it("deletes a tag with its bindings, leaving the targets and other tags' bindings", async () => {
      const { tags, datasets } = repositories();
      const { workspace, other, targets, binding } = await seed();
      const [gone, kept] = [aTag(workspace.id, { name: "gone" }), aTag(workspace.id, { name: "kept" })];
      await tags.create(gone);
      await tags.create(kept);
      await tags.bind([binding(gone.id, targets[0].id), binding(kept.id, targets[0].id)]);
      expect(await tags.delete(other.id, "knowledge", gone.id)).toBe(false);
      expect(await tags.delete(workspace.id, "app", gone.id)).toBe(false);
      expect(await tags.boundTagIds(targets[0].id)).toEqual([gone.id, kept.id].sort());
      expect(await tags.delete(workspace.id, "knowledge", gone.id)).toBe(true);
      expect(await tags.delete(workspace.id, "knowledge", gone.id)).toBe(false);
      expect(await tags.findInWorkspace(workspace.id, "knowledge", gone.id)).toBeUndefined();
      expect(await tags.boundTagIds(targets[0].id)).toEqual([kept.id]);
      expect(await datasets.findInWorkspace(workspace.id, targets[0].id)).toEqual(targets[0]);
    });

    it("gives the tags bound to each target by name, and [] for a target without any", async () => {
      const { tags } = repositories();
      const { workspace, targets, binding } = await seed();
      const [zebra, apple] = [aTag(workspace.id, { name: "zebra" }), aTag(workspace.id, { name: "apple" })];
      await tags.create(zebra);
      await tags.create(apple);
      await tags.bind([binding(zebra.id, targets[0].id), binding(apple.id, targets[0].id)]);
      const bound = await tags.boundTags([targets[0].id, targets[1].id]);
      expect(bound.get(targets[0].id)).toEqual([apple, zebra]);
      expect(bound.get(targets[1].id)).toEqual([]);
      expect(await tags.boundTags([])).toEqual(new Map());
    });

    it("reads a dataset with its knowledge tags by name, only in its own workspace", async () => {
      const { tags, datasets } = repositories();
      const { workspace, other, targets, binding } = await seed();
      const [zebra, apple, bots] = [
        aTag(workspace.id, { name: "zebra" }),
        aTag(workspace.id, { name: "apple" }),
        aTag(workspace.id, { name: "app bots", type: "app" }),
      ];
      for (const tag of [zebra, apple, bots]) await tags.create(tag);
      await tags.bind([zebra, apple, bots].map((tag) => binding(tag.id, targets[0].id)));
      await tags.bind([binding(apple.id, targets[1].id)]);
      const [stored, second] = await Promise.all(
        targets.map((target) => datasets.findInWorkspace(workspace.id, target.id)),
      );
      expect(await tags.findBoundToDataset(workspace.id, targets[0].id)).toEqual({
        dataset: stored,
        tags: [apple, zebra],
      });
      expect(await tags.findBoundToDataset(workspace.id, targets[1].id)).toEqual({
        dataset: second,
        tags: [apple],
      });
      await tags.unbind(targets[1].id, [apple.id]);
      expect(await tags.findBoundToDataset(workspace.id, targets[1].id)).toEqual({
        dataset: second,
        tags: [],
      });
      const none = { dataset: undefined, tags: [] };
      expect(await tags.findBoundToDataset(other.id, targets[0].id)).toEqual(none);
      expect(await tags.findBoundToDataset(workspace.id, globalThis.crypto.randomUUID())).toEqual(none);
    });
  });
}
