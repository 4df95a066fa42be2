import { aDataset, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NO_INPUT, NOT_INPUTS, NUL } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { GetDataset } from "./get-dataset.js";
import { ListDatasets } from "./list-datasets.js";
import { OpenDataset } from "./open-dataset.js";

async function setup() {
  const world = createWorld({ refusingUnstorableText: true });
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const tag = aTag(workspace.id);
  await world.tags.save(tag);
  return {
    world,
    workspace,
    dataset,
    tag,
    list: new ListDatasets(world.datasets),
    get: new GetDataset(world.datasets),
    open: new OpenDataset(world.datasets),
  };
}

describe("dataset use cases called with input their types do not allow", () => {
  it("refuse a call given no input object with invalid_param, writing nothing", async () => {
    const { world, list, get, open } = await setup();
    const before = world.contents();
    for (const use of [list, get, open]) {
      for (const input of NOT_INPUTS) await expect(use.execute(loose(input))).rejects.toMatchObject(NO_INPUT);
    }
    expect(world.contents()).toEqual(before);
  });

  it("refuse a page, a keyword or tag ids of the wrong kind with invalid_param", async () => {
    const { workspace, list } = await setup();
    const page = { page: 1, limit: 20 };
    for (const [input, message] of [
      [{ page: { page: 1, limit: "x" } }, "limit: must be an integer from 1 to 100."],
      [{ page: { page: 0, limit: 20 } }, "page: must be an integer of at least 1."],
      [{ page, keyword: 1 }, "keyword: must be a string."],
      [{ page, keyword: null }, "keyword: must be a string."],
      [{ page, tagIds: "a" }, "tag_ids: must be a list."],
    ] as const) {
      await expect(list.execute(loose({ workspaceId: workspace.id, ...input }))).rejects.toMatchObject({
        code: "invalid_param",
        message,
      });
    }
  });

  it("list nothing for a workspace or a tag whose id can name nothing, without asking the store", async () => {
    const { workspace, tag, list } = await setup();
    const page = { page: 1, limit: 20 };
    const empty = { items: [], total: 0, page: 1, limit: 20, hasMore: false };
    expect(await list.execute({ workspaceId: NUL, page })).toEqual(empty);
    expect(await list.execute({ workspaceId: workspace.id, page, tagIds: [tag.id, NUL] })).toEqual(empty);
    expect((await list.execute({ workspaceId: workspace.id, page })).total).toBe(1);
  });

  it("answer a dataset whose ids can name nothing as not found, without asking the store", async () => {
    const { workspace, dataset, get, open } = await setup();
    for (const scope of [
      { workspaceId: workspace.id, datasetId: NUL },
      { workspaceId: NUL, datasetId: dataset.id },
      { workspaceId: workspace.id, datasetId: 7 },
    ]) {
      for (const use of [get, open]) {
        await expect(use.execute(loose(scope))).rejects.toMatchObject({
          code: "not_found",
          message: "Dataset not found.",
        });
      }
    }
  });
});
