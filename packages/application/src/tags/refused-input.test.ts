import type { Tag } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import { aDataset, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NO_INPUT, NOT_INPUTS, NUL, UNKNOWN_ID } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { BindTagsToDataset } from "./bind-tags-to-dataset.js";
import { CreateKnowledgeTag } from "./create-knowledge-tag.js";
import { DeleteKnowledgeTag } from "./delete-knowledge-tag.js";
import { ListDatasetTags } from "./list-dataset-tags.js";
import { ListKnowledgeTags } from "./list-knowledge-tags.js";
import { RenameKnowledgeTag } from "./rename-knowledge-tag.js";
import { UnbindTagsFromDataset } from "./unbind-tags-from-dataset.js";

/**
 * The world's tags, refusing a tag of a workspace that is not there as the SQL stores do: their
 * foreign key fails the insert with the driver's own error, which is no domain error.
 */
function refusingOrphans(world: ReturnType<typeof createWorld>): TagRepository {
  const create = async (tag: Tag) => {
    if (!(await world.workspaces.findById(tag.workspaceId))) throw new Error("FOREIGN KEY constraint failed");
    return world.tags.create(tag);
  };
  return new Proxy(world.tags, {
    get: (target, property) => {
      if (property === "create") return create;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function setup() {
  const world = createWorld({ refusingUnstorableText: true });
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const tag = aTag(workspace.id, { name: "red" });
  await world.tags.save(tag);
  return {
    world,
    workspace,
    dataset,
    tag,
    create: new CreateKnowledgeTag(refusingOrphans(world), world.ids, world.clock, world.workspaces),
    rename: new RenameKnowledgeTag(world.tags),
    remove: new DeleteKnowledgeTag(world.tags),
    list: new ListKnowledgeTags(world.tags),
    bind: new BindTagsToDataset(world.tags, world.ids, world.clock),
    unbind: new UnbindTagsFromDataset(world.tags),
    datasetTags: new ListDatasetTags(world.tags),
  };
}

describe("tag use cases called with input their types do not allow", () => {
  it("refuse a call given no input object with invalid_param, writing nothing", async () => {
    const { world, create, rename, remove, list, bind, unbind, datasetTags } = await setup();
    const before = world.contents();
    for (const use of [create, rename, remove, list, bind, unbind, datasetTags]) {
      for (const input of NOT_INPUTS) await expect(use.execute(loose(input))).rejects.toMatchObject(NO_INPUT);
    }
    expect(world.contents()).toEqual(before);
  });

  it("refuse a name that is not text with invalid_param, writing nothing", async () => {
    const { world, workspace, tag, create, rename } = await setup();
    const before = world.contents();
    for (const name of [123, undefined, null]) {
      const refused = { code: "invalid_param", message: "name: Name must be a string." };
      await expect(create.execute(loose({ workspaceId: workspace.id, name }))).rejects.toMatchObject(refused);
      await expect(
        rename.execute(loose({ workspaceId: workspace.id, tagId: tag.id, name })),
      ).rejects.toMatchObject(refused);
    }
    expect(world.contents()).toEqual(before);
  });

  it("answer a workspace that is not there, or cannot be, as not found, creating no tag", async () => {
    const { world, create } = await setup();
    const before = world.contents();
    for (const workspaceId of [UNKNOWN_ID, NUL, undefined]) {
      await expect(create.execute(loose({ workspaceId, name: "orphan" }))).rejects.toMatchObject({
        code: "not_found",
        message: "Workspace not found.",
      });
    }
    expect(world.contents()).toEqual(before);
  });

  it("find no tag for ids that can name nothing, without asking the store", async () => {
    const { world, workspace, tag, rename, remove, list } = await setup();
    const before = world.contents();
    for (const [workspaceId, tagId] of [
      [workspace.id, NUL],
      [NUL, tag.id],
      [workspace.id, 42],
    ]) {
      const notFound = { code: "not_found", message: "Tag not found" };
      await expect(rename.execute(loose({ workspaceId, tagId, name: "blue" }))).rejects.toMatchObject(
        notFound,
      );
      await expect(remove.execute(loose({ workspaceId, tagId }))).rejects.toMatchObject(notFound);
    }
    expect(await list.execute({ workspaceId: NUL })).toEqual([]);
    expect(world.contents()).toEqual(before);
  });

  it("bind and unbind only ids that can name a tag, and refuse tag ids that are not a list", async () => {
    const { world, workspace, dataset, tag, bind, unbind } = await setup();
    const before = world.contents();
    for (const run of [bind, unbind]) {
      for (const tagIds of ["abc", undefined, { 0: tag.id }]) {
        await expect(
          run.execute(loose({ workspaceId: workspace.id, tagIds, targetId: dataset.id })),
        ).rejects.toMatchObject({ code: "invalid_param", message: "tag_ids: Tag IDs is required." });
      }
    }
    expect(world.contents()).toEqual(before);
    const scope = { workspaceId: workspace.id, targetId: dataset.id };
    await bind.execute({ ...scope, tagIds: [NUL, tag.id, "\ud800"] });
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([tag.id]);
    await unbind.execute({ ...scope, tagIds: [tag.id, NUL] });
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([]);
  });

  it("answer a dataset whose ids can name nothing as not found, binding nothing", async () => {
    const { world, workspace, dataset, tag, bind, unbind, datasetTags } = await setup();
    const before = world.contents();
    for (const [workspaceId, targetId] of [
      [workspace.id, NUL],
      [NUL, dataset.id],
      [workspace.id, undefined],
    ]) {
      for (const run of [bind, unbind]) {
        await expect(run.execute(loose({ workspaceId, targetId, tagIds: [tag.id] }))).rejects.toMatchObject({
          code: "not_found",
          message: "Dataset not found",
        });
      }
      await expect(datasetTags.execute(loose({ workspaceId, datasetId: targetId }))).rejects.toMatchObject({
        code: "not_found",
        message: "Dataset not found.",
      });
    }
    expect(world.contents()).toEqual(before);
  });
});
