import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NO_INPUT, NOT_INPUTS, NUL, UNKNOWN_ID } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { ListBuiltInFields, ToggleBuiltInFields } from "./built-in-fields.js";
import { CreateMetadataField } from "./create-metadata-field.js";
import { DeleteMetadataField } from "./delete-metadata-field.js";
import { ListMetadataFields } from "./list-metadata-fields.js";
import { RenameMetadataField } from "./rename-metadata-field.js";
import { SetDocumentMetadata } from "./set-document-metadata.js";

async function setup() {
  const world = createWorld({ refusingUnstorableText: true });
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const document = aDocument(dataset.id);
  await world.documents.save(document);
  const field = aMetadataField(dataset.id, { name: "category" });
  await world.metadata.saveField(field);
  await world.metadata.setValue(document.id, field.id, "kept");
  return {
    world,
    dataset,
    document,
    field,
    scope: { workspaceId: workspace.id, datasetId: dataset.id },
    create: new CreateMetadataField(world.metadata, world.datasets, world.ids, world.clock),
    rename: new RenameMetadataField(world.metadata, world.datasets),
    remove: new DeleteMetadataField(world.metadata, world.datasets),
    list: new ListMetadataFields(world.metadata),
    set: new SetDocumentMetadata(world.metadata),
    toggle: new ToggleBuiltInFields(world.datasets, world.clock),
    builtIns: new ListBuiltInFields(),
  };
}

const DATASET_NOT_FOUND = { code: "not_found", message: "Dataset not found." };

describe("metadata use cases called with input their types do not allow", () => {
  it("refuse a call given no input object with invalid_param, writing nothing", async () => {
    const { world, create, rename, remove, list, set, toggle, builtIns } = await setup();
    const before = world.contents();
    for (const use of [create, rename, remove, list, set, toggle, builtIns]) {
      for (const input of NOT_INPUTS) await expect(use.execute(loose(input))).rejects.toMatchObject(NO_INPUT);
    }
    expect(world.contents()).toEqual(before);
  });

  it("refuse a field type other than string, number or time, before the dataset, storing no field", async () => {
    const { world, scope, create } = await setup();
    const before = world.contents();
    for (const type of ["bogus", "String", undefined, 1]) {
      for (const datasetId of [scope.datasetId, UNKNOWN_ID]) {
        await expect(create.execute(loose({ ...scope, datasetId, type, name: "f1" }))).rejects.toMatchObject({
          code: "invalid_param",
          message: "type: must be string, number or time.",
        });
      }
    }
    expect(world.contents()).toEqual(before);
  });

  it("refuse a field name that is not text, writing nothing", async () => {
    const { world, scope, field, create, rename } = await setup();
    const before = world.contents();
    const refused = { code: "invalid_param", message: "name: Name must be a string." };
    await expect(create.execute(loose({ ...scope, type: "string", name: 7 }))).rejects.toMatchObject(refused);
    await expect(rename.execute(loose({ ...scope, fieldId: field.id }))).rejects.toMatchObject(refused);
    expect(world.contents()).toEqual(before);
  });

  it("answer a dataset whose ids can name nothing as not found, without asking the store", async () => {
    const { world, scope, field, create, rename, remove, list, set, toggle } = await setup();
    const before = world.contents();
    for (const bad of [
      { ...scope, datasetId: NUL },
      { ...scope, workspaceId: NUL },
      { ...scope, datasetId: undefined },
    ]) {
      const calls = [
        () => list.execute(loose(bad)),
        () => create.execute(loose({ ...bad, type: "string", name: "f1" })),
        () => create.execute(loose({ ...bad, type: "string", name: " " })),
        () => rename.execute(loose({ ...bad, fieldId: field.id, name: "f2" })),
        () => remove.execute(loose({ ...bad, fieldId: field.id })),
        () => toggle.execute(loose({ ...bad, enabled: true })),
        () => set.execute(loose({ ...bad, operations: [] })),
      ];
      for (const call of calls) await expect(call()).rejects.toMatchObject(DATASET_NOT_FOUND);
    }
    expect(world.contents()).toEqual(before);
  });

  it("find no field for an id that can name nothing", async () => {
    const { world, scope, rename, remove } = await setup();
    const before = world.contents();
    const notFound = { code: "not_found", message: "Metadata not found." };
    await expect(rename.execute({ ...scope, fieldId: NUL, name: "renamed" })).rejects.toMatchObject(notFound);
    await expect(remove.execute(loose({ ...scope, fieldId: 3 }))).rejects.toMatchObject(notFound);
    expect(world.contents()).toEqual(before);
  });

  it("refuse a toggle that is not true or false, and built-ins listed for no dataset", async () => {
    const { world, scope, toggle, builtIns } = await setup();
    const before = world.contents();
    await expect(toggle.execute(loose({ ...scope, enabled: "false" }))).rejects.toMatchObject({
      code: "invalid_param",
      message: "enabled: must be true or false.",
    });
    await expect(builtIns.execute(loose({}))).rejects.toMatchObject(DATASET_NOT_FOUND);
    expect(world.contents()).toEqual(before);
  });
});

describe("SetDocumentMetadata called with operations their types do not allow", () => {
  it.each([
    ["no operations", undefined, "operation_data: must be a list."],
    ["an operation that is no object", ["op"], "operation_data.0: must be an object."],
    [
      "a missing metadata list",
      [{ documentId: "d", partialUpdate: true }],
      "operation_data.0.metadata_list: must be a list.",
    ],
    [
      "an item that is no object",
      [{ documentId: "d", metadataList: [null], partialUpdate: true }],
      "operation_data.0.metadata_list.0: must be an object.",
    ],
    [
      "a partial update that is not true or false",
      [{ documentId: "d", metadataList: [], partialUpdate: "yes" }],
      "operation_data.0.partial_update: must be true or false.",
    ],
  ])(
    "refuses %s with invalid_param, before the dataset, writing nothing",
    async (_label, operations, message) => {
      const { world, scope, set } = await setup();
      const before = world.contents();
      for (const datasetId of [scope.datasetId, UNKNOWN_ID]) {
        await expect(set.execute(loose({ ...scope, datasetId, operations }))).rejects.toMatchObject({
          code: "invalid_param",
          message,
        });
      }
      expect(world.contents()).toEqual(before);
    },
  );

  it("finds no document or field for ids that can name nothing, writing nothing, and takes an absent partial update as false", async () => {
    const { world, scope, document, field, set } = await setup();
    const before = world.contents();
    const change = { id: field.id, value: "changed" };
    await expect(
      set.execute({
        ...scope,
        operations: [
          { documentId: document.id, metadataList: [change], partialUpdate: true },
          { documentId: NUL, metadataList: [], partialUpdate: true },
        ],
      }),
    ).rejects.toMatchObject({ code: "not_found", message: "Document not found." });
    await expect(
      set.execute({
        ...scope,
        operations: [
          { documentId: document.id, metadataList: [{ id: NUL, value: "x" }], partialUpdate: true },
        ],
      }),
    ).rejects.toMatchObject({ code: "not_found", message: "Metadata not found." });
    expect(world.contents()).toEqual(before);
    await set.execute(loose({ ...scope, operations: [{ documentId: document.id, metadataList: [change] }] }));
    expect(await world.metadata.valuesOf(document.id)).toMatchObject([{ id: field.id, value: "changed" }]);
  });
});
