import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { ListMetadataFields } from "./list-metadata-fields.js";

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const documents = [aDocument(dataset.id), aDocument(dataset.id), aDocument(dataset.id)];
  for (const document of documents) await world.documents.save(document);
  const author = aMetadataField(dataset.id, { name: "author", createdAt: 1 });
  const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 2 });
  await world.metadata.saveField(author);
  await world.metadata.saveField(year);
  const list = new ListMetadataFields(world.metadata);
  return {
    world,
    workspace,
    dataset,
    documents,
    author,
    year,
    list,
    input: { workspaceId: workspace.id, datasetId: dataset.id },
  };
}

describe("ListMetadataFields", () => {
  it("counts the documents holding each field, right after values are added", async () => {
    const { world, documents, author, year, list, input } = await setup();
    expect((await list.execute(input)).fields.map((field) => field.count)).toEqual([0, 0]);
    await world.metadata.setValue(documents[0]!.id, author.id, "Ada");
    await world.metadata.setValue(documents[1]!.id, author.id, "Grace");
    await world.metadata.setValue(documents[1]!.id, year.id, "1843");
    expect(await list.execute(input)).toEqual({
      fields: [
        { id: author.id, name: "author", type: "string", count: 2 },
        { id: year.id, name: "year", type: "number", count: 1 },
      ],
      builtInFieldEnabled: false,
    });
  });

  it("lists the five built-ins, counting every document, only when enabled", async () => {
    const { world, dataset, list, input } = await setup();
    await world.datasets.save({ ...dataset, builtInFieldEnabled: true });
    const result = await list.execute(input);
    expect(result.builtInFieldEnabled).toBe(true);
    expect(result.fields.slice(2)).toEqual([
      { id: "built-in", name: "document_name", type: "string", count: 3 },
      { id: "built-in", name: "uploader", type: "string", count: 3 },
      { id: "built-in", name: "upload_date", type: "time", count: 3 },
      { id: "built-in", name: "last_update_date", type: "time", count: 3 },
      { id: "built-in", name: "source", type: "string", count: 3 },
    ]);
  });

  it("answers 404 for another workspace and 403 when API access is off", async () => {
    const { world, dataset, list, input } = await setup();
    await expect(list.execute({ ...input, workspaceId: aWorkspace().id })).rejects.toMatchObject({
      code: "not_found",
    });
    await world.datasets.save({ ...dataset, enableApi: false });
    await expect(list.execute(input)).rejects.toMatchObject({ code: "forbidden" });
  });
});
