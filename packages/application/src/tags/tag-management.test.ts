import { aDataset, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { CreateKnowledgeTag } from "./create-knowledge-tag.js";
import { DeleteKnowledgeTag } from "./delete-knowledge-tag.js";
import { ListDatasetTags } from "./list-dataset-tags.js";
import { ListKnowledgeTags } from "./list-knowledge-tags.js";
import { RenameKnowledgeTag } from "./rename-knowledge-tag.js";
import { UnbindTagsFromDataset } from "./unbind-tags-from-dataset.js";

async function setup() {
  const world = createWorld();
  const [workspace, other] = [aWorkspace(), aWorkspace()];
  for (const each of [workspace, other]) await world.workspaces.save(each);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  return {
    world,
    workspace,
    other,
    dataset,
    create: new CreateKnowledgeTag(world.tags, world.ids, world.clock),
    rename: new RenameKnowledgeTag(world.tags),
    remove: new DeleteKnowledgeTag(world.tags),
    list: new ListKnowledgeTags(world.tags),
    unbind: new UnbindTagsFromDataset(world.tags),
    datasetTags: new ListDatasetTags(world.tags),
  };
}

const bindingOf = (workspaceId: string, tagId: string, targetId: string) => ({
  id: globalThis.crypto.randomUUID(),
  workspaceId,
  tagId,
  targetId,
  createdAt: 1,
});

describe("knowledge tag management", () => {
  it("creates a knowledge tag as sent, with no bindings, newest first in the list", async () => {
    const { world, workspace, create, list } = await setup();
    const first = await create.execute({ workspaceId: workspace.id, name: " Finance " });
    world.clock.now += 10;
    const second = await create.execute({ workspaceId: workspace.id, name: "Legal" });
    expect(first).toMatchObject({ name: " Finance ", type: "knowledge", bindingCount: 0 });
    expect((await list.execute({ workspaceId: workspace.id })).map((tag) => tag.id)).toEqual([
      second.id,
      first.id,
    ]);
  });

  it("refuses a blank name, then a long one, then a taken one, creating nothing", async () => {
    const { workspace, other, create, list } = await setup();
    await create.execute({ workspaceId: workspace.id, name: "taken" });
    await create.execute({ workspaceId: other.id, name: "free here" });
    await expect(create.execute({ workspaceId: workspace.id, name: " " })).rejects.toMatchObject({
      code: "invalid_param",
      message: "name: Name must not be blank.",
    });
    await expect(create.execute({ workspaceId: workspace.id, name: "x".repeat(51) })).rejects.toMatchObject({
      message: "name: Name must be between 1 to 50 characters.",
    });
    await expect(create.execute({ workspaceId: workspace.id, name: "taken" })).rejects.toMatchObject({
      code: "invalid_param",
      message: "Tag name already exists",
    });
    expect(await create.execute({ workspaceId: workspace.id, name: "free here" })).toMatchObject({
      name: "free here",
    });
    expect(await list.execute({ workspaceId: workspace.id })).toHaveLength(2);
  });

  it("renames to a free name or its own, refuses another's, and 404s a tag not the workspace's knowledge tag", async () => {
    const { world, workspace, other, create, rename } = await setup();
    const tag = await create.execute({ workspaceId: workspace.id, name: "a" });
    await create.execute({ workspaceId: workspace.id, name: "b" });
    const appTag = aTag(workspace.id, { type: "app", name: "bots" });
    const foreign = aTag(other.id, { name: "c" });
    for (const each of [appTag, foreign]) await world.tags.save(each);
    expect(await rename.execute({ workspaceId: workspace.id, tagId: tag.id, name: "a" })).toMatchObject({
      name: "a",
    });
    await expect(
      rename.execute({ workspaceId: workspace.id, tagId: tag.id, name: "b" }),
    ).rejects.toMatchObject({
      message: "Tag name already exists",
    });
    for (const tagId of [appTag.id, foreign.id, "missing"]) {
      await expect(rename.execute({ workspaceId: workspace.id, tagId, name: "z" })).rejects.toMatchObject({
        code: "not_found",
        message: "Tag not found",
      });
    }
    await expect(
      rename.execute({ workspaceId: workspace.id, tagId: "missing", name: "" }),
    ).rejects.toMatchObject({
      code: "invalid_param",
    });
    expect(await rename.execute({ workspaceId: workspace.id, tagId: tag.id, name: "c" })).toMatchObject({
      name: "c",
    });
  });

  it("deletes a tag with its bindings and unbinds only the workspace's knowledge tags", async () => {
    const { world, workspace, dataset, create, remove, unbind, datasetTags } = await setup();
    const [kept, gone, other] = [
      await create.execute({ workspaceId: workspace.id, name: "kept" }),
      await create.execute({ workspaceId: workspace.id, name: "gone" }),
      await create.execute({ workspaceId: workspace.id, name: "other" }),
    ];
    await world.tags.bind([kept, gone, other].map((tag) => bindingOf(workspace.id, tag.id, dataset.id)));
    await remove.execute({ workspaceId: workspace.id, tagId: gone.id });
    expect(
      (await datasetTags.execute({ workspaceId: workspace.id, datasetId: dataset.id })).map(
        (tag) => tag.name,
      ),
    ).toEqual(["kept", "other"]);
    await unbind.execute({
      workspaceId: workspace.id,
      targetId: dataset.id,
      tagIds: [other.id, "unknown", other.id],
    });
    await unbind.execute({ workspaceId: workspace.id, targetId: dataset.id, tagIds: [other.id] });
    expect(
      (await datasetTags.execute({ workspaceId: workspace.id, datasetId: dataset.id })).map(
        (tag) => tag.name,
      ),
    ).toEqual(["kept"]);
    await expect(remove.execute({ workspaceId: workspace.id, tagId: gone.id })).rejects.toMatchObject({
      message: "Tag not found",
    });
    await expect(
      unbind.execute({ workspaceId: workspace.id, targetId: "missing", tagIds: [kept.id] }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found" });
  });

  it("lists a dataset's tags only for a dataset of the workspace that serves the API", async () => {
    const { world, workspace, dataset, datasetTags } = await setup();
    await expect(
      datasetTags.execute({ workspaceId: globalThis.crypto.randomUUID(), datasetId: dataset.id }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
    await world.datasets.save({ ...dataset, enableApi: false });
    await expect(
      datasetTags.execute({ workspaceId: workspace.id, datasetId: dataset.id }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
