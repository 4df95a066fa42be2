import { aDataset, aMember, aMetadataField, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { GetDataset } from "./get-dataset.js";
import { ListDatasets } from "./list-datasets.js";
import { OpenDataset } from "./open-dataset.js";

describe("datasets", () => {
  it("lists and shows datasets with their knowledge tags and fields, and checks one before it is used", async () => {
    const world = createWorld();
    const workspace = aWorkspace();
    await world.workspaces.save(workspace);
    const member = aMember(workspace.id, { name: "Ada" });
    await world.workspaces.saveMember(member);
    const [older, newer] = [
      aDataset(workspace.id, { name: "Older", createdAt: 1, createdBy: member.id }),
      aDataset(workspace.id, { name: "Newer", createdAt: 2, enableApi: false }),
    ];
    for (const dataset of [older, newer]) await world.datasets.save(dataset);
    const tag = aTag(workspace.id, { name: "red" });
    const appTag = aTag(workspace.id, { name: "bots", type: "app" });
    for (const each of [tag, appTag]) await world.tags.save(each);
    await world.tags.bind(
      [tag, appTag].map((each) => ({
        id: globalThis.crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId: each.id,
        targetId: older.id,
        createdAt: 1,
      })),
    );
    const field = aMetadataField(older.id);
    await world.metadata.saveField(field);

    const page = await new ListDatasets(world.datasets).execute({
      workspaceId: workspace.id,
      page: { page: 1, limit: 20 },
    });
    expect(page.items.map((view) => view.dataset.name)).toEqual(["Newer", "Older"]);
    const tagged = await new ListDatasets(world.datasets).execute({
      workspaceId: workspace.id,
      page: { page: 1, limit: 20 },
      tagIds: [tag.id],
    });
    expect(tagged.items.map((view) => [view.dataset.name, view.tags, view.fields])).toEqual([
      ["Older", [tag], [field]],
    ]);
    expect(
      (await new GetDataset(world.datasets).execute({ workspaceId: workspace.id, datasetId: older.id }))
        .authorName,
    ).toBe("Ada");
    await expect(
      new GetDataset(world.datasets).execute({ workspaceId: workspace.id, datasetId: newer.id }),
    ).rejects.toMatchObject({
      code: "forbidden",
      message: "Dataset api access is not enabled.",
    });
    await expect(
      new OpenDataset(world.datasets).execute({ workspaceId: "other", datasetId: older.id }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: "Dataset not found.",
    });
  });
});
