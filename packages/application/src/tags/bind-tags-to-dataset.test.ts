import { aDataset, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { BindTagsToDataset } from "./bind-tags-to-dataset.js";

async function setup() {
  const world = createWorld();
  const [workspace, foreignWorkspace] = [aWorkspace(), aWorkspace()];
  await world.workspaces.save(workspace);
  await world.workspaces.save(foreignWorkspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const tags = {
    finance: aTag(workspace.id),
    legal: aTag(workspace.id, { name: "legal" }),
    appTag: aTag(workspace.id, { type: "app" }),
    foreign: aTag(foreignWorkspace.id),
  };
  for (const tag of Object.values(tags)) await world.tags.save(tag);
  const bind = new BindTagsToDataset(world.tags, world.ids, world.clock);
  return { world, workspace, foreignWorkspace, dataset, tags, bind };
}

describe("BindTagsToDataset", () => {
  it("binds the workspace's knowledge tags and ignores every other id", async () => {
    const { world, workspace, dataset, tags, bind } = await setup();
    await bind.execute({
      workspaceId: workspace.id,
      targetId: dataset.id,
      tagIds: ["unknown", tags.foreign.id, tags.appTag.id, tags.legal.id, tags.finance.id, tags.legal.id],
    });
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([tags.legal.id, tags.finance.id].sort());
  });

  it("is idempotent", async () => {
    const { world, workspace, dataset, tags, bind } = await setup();
    const input = { workspaceId: workspace.id, targetId: dataset.id, tagIds: [tags.finance.id] };
    await bind.execute(input);
    await bind.execute(input);
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([tags.finance.id]);
  });

  it("does not find another workspace's dataset", async () => {
    const { world, foreignWorkspace, dataset, tags, bind } = await setup();
    await expect(
      bind.execute({ workspaceId: foreignWorkspace.id, targetId: dataset.id, tagIds: [tags.foreign.id] }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found" });
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([]);
  });

  it("binds even when the dataset's API access is off", async () => {
    const { world, workspace, dataset, tags, bind } = await setup();
    await world.datasets.save({ ...dataset, enableApi: false });
    await bind.execute({ workspaceId: workspace.id, targetId: dataset.id, tagIds: [tags.finance.id] });
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([tags.finance.id]);
  });
});
