import type { Dataset } from "@service-api/domain";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { ToggleBuiltInFields } from "./built-in-fields.js";
import { CreateMetadataField } from "./create-metadata-field.js";
import { DeleteMetadataField } from "./delete-metadata-field.js";
import { ListMetadataFields } from "./list-metadata-fields.js";
import { RenameMetadataField } from "./rename-metadata-field.js";
import { type DocumentMetadataOperation, SetDocumentMetadata } from "./set-document-metadata.js";

/** The request's workspace and dataset, as a use case takes them. */
const scopeOf = (dataset: Dataset) => ({ workspaceId: dataset.workspaceId, datasetId: dataset.id });

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const documents = [aDocument(dataset.id), aDocument(dataset.id)] as const;
  for (const document of documents) await world.documents.save(document);
  return {
    world,
    workspace,
    dataset,
    documents,
    create: new CreateMetadataField(world.metadata, world.datasets, world.ids, world.clock),
    rename: new RenameMetadataField(world.metadata, world.datasets),
    remove: new DeleteMetadataField(world.metadata, world.datasets),
    set: new SetDocumentMetadata(world.metadata),
    toggle: new ToggleBuiltInFields(world.datasets, world.clock),
    list: new ListMetadataFields(world.metadata),
  };
}

describe("metadata field management", () => {
  it("creates fields last in the list, refusing blank, long, built-in and taken names in that order", async () => {
    const { world, workspace, dataset, create, list } = await setup();
    const author = await create.execute({
      ...scopeOf(dataset),
      type: "string",
      name: "author",
    });
    world.clock.now += 1;
    const year = await create.execute({
      ...scopeOf(dataset),
      type: "number",
      name: "year",
    });
    const listed = await list.execute({ workspaceId: workspace.id, datasetId: dataset.id });
    expect(listed.fields.map((field) => [field.id, field.count])).toEqual([
      [author.id, 0],
      [year.id, 0],
    ]);
    for (const [name, message] of [
      ["", "name: Name must not be blank."],
      ["x".repeat(256), "name: Metadata name cannot exceed 255 characters."],
      ["upload_date", "Metadata name already exists in Built-in fields."],
      ["author", "Metadata name already exists."],
    ]) {
      await expect(
        create.execute({
          ...scopeOf(dataset),
          type: "string",
          name: name!,
        }),
      ).rejects.toMatchObject({
        code: "invalid_param",
        message,
      });
    }
  });

  it("renames a field keeping its values, 404s a missing field before a taken name, accepts its own", async () => {
    const { world, dataset, documents, create, rename, set } = await setup();
    const author = await create.execute({
      ...scopeOf(dataset),
      type: "string",
      name: "author",
    });
    await create.execute({
      ...scopeOf(dataset),
      type: "string",
      name: "editor",
    });
    await set.execute({
      ...scopeOf(dataset),
      operations: [
        { documentId: documents[0].id, metadataList: [{ id: author.id, value: "Ada" }], partialUpdate: true },
      ],
    });
    expect(
      await rename.execute({
        ...scopeOf(dataset),
        fieldId: author.id,
        name: "author",
      }),
    ).toMatchObject({
      name: "author",
    });
    await expect(
      rename.execute({
        ...scopeOf(dataset),
        fieldId: "missing",
        name: "editor",
      }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: "Metadata not found.",
    });
    await expect(
      rename.execute({
        ...scopeOf(dataset),
        fieldId: author.id,
        name: "editor",
      }),
    ).rejects.toMatchObject({
      message: "Metadata name already exists.",
    });
    await rename.execute({
      ...scopeOf(dataset),
      fieldId: author.id,
      name: "writer",
    });
    expect(await world.metadata.valuesOf(documents[0].id)).toEqual([
      { id: author.id, name: "writer", type: "string", value: "Ada" },
    ]);
  });

  it("deletes a field and its values, and 404s a field of another dataset", async () => {
    const { world, workspace, dataset, documents, create, remove, set } = await setup();
    const field = await create.execute({
      ...scopeOf(dataset),
      type: "string",
      name: "gone",
    });
    await set.execute({
      ...scopeOf(dataset),
      operations: [
        { documentId: documents[1].id, metadataList: [{ id: field.id, value: "x" }], partialUpdate: false },
      ],
    });
    const other = aDataset(workspace.id);
    await world.datasets.save(other);
    const foreign = aMetadataField(other.id);
    await world.metadata.saveField(foreign);
    await expect(remove.execute({ ...scopeOf(dataset), fieldId: foreign.id })).rejects.toMatchObject({
      code: "not_found",
    });
    await remove.execute({ ...scopeOf(dataset), fieldId: field.id });
    expect(await world.metadata.valuesOf(documents[1].id)).toEqual([]);
  });

  it("checks the dataset as it writes a field or the built-ins, and answers its 404 or 403 before the field's own errors", async () => {
    const { world, workspace, dataset, create, rename, remove, toggle } = await setup();
    const author = await create.execute({
      workspaceId: workspace.id,
      datasetId: dataset.id,
      type: "string",
      name: "author",
    });
    const stranger = aWorkspace();
    await world.workspaces.save(stranger);
    const elsewhere = { workspaceId: stranger.id, datasetId: dataset.id };
    const writes = (scope: { workspaceId: string; datasetId: string }) => [
      () => create.execute({ ...scope, type: "string", name: "author" }),
      () => create.execute({ ...scope, type: "string", name: " " }),
      () => create.execute({ ...scope, type: "string", name: "fresh" }),
      () => rename.execute({ ...scope, fieldId: author.id, name: " " }),
      () => rename.execute({ ...scope, fieldId: "missing", name: "fresh" }),
      () => rename.execute({ ...scope, fieldId: author.id, name: "fresh" }),
      () => remove.execute({ ...scope, fieldId: "missing" }),
      () => remove.execute({ ...scope, fieldId: author.id }),
      () => toggle.execute({ ...scope, enabled: !dataset.builtInFieldEnabled }),
    ];
    for (const write of writes(elsewhere))
      await expect(write()).rejects.toMatchObject({ message: "Dataset not found." });
    await world.datasets.save({ ...dataset, enableApi: false });
    for (const write of writes({ workspaceId: workspace.id, datasetId: dataset.id }))
      await expect(write()).rejects.toMatchObject({ message: "Dataset api access is not enabled." });
    // Nothing was written.
    expect(await world.metadata.listFields(dataset.id)).toEqual([author]);
    expect((await world.datasets.findInWorkspace(workspace.id, dataset.id))?.builtInFieldEnabled).toBe(
      dataset.builtInFieldEnabled,
    );
  });

  it("sets values typed by their field: replacing, or partly, null clearing, the last of a field winning", async () => {
    const { world, dataset, documents, create, set } = await setup();
    const [n, t, s] = [
      await create.execute({
        ...scopeOf(dataset),
        type: "number",
        name: "n",
      }),
      await create.execute({
        ...scopeOf(dataset),
        type: "time",
        name: "t",
      }),
      await create.execute({
        ...scopeOf(dataset),
        type: "string",
        name: "s",
      }),
    ];
    const [first] = documents;
    await set.execute({
      ...scopeOf(dataset),
      operations: [
        {
          documentId: first.id,
          metadataList: [
            { id: n.id, value: "042" },
            { id: t.id, value: 1_700_000_000 },
            { id: s.id, value: "x" },
            { id: s.id, value: "last" },
          ],
          partialUpdate: false,
        },
      ],
    });
    const values = async () =>
      Object.fromEntries((await world.metadata.valuesOf(first.id)).map((e) => [e.name, e.value]));
    expect(await values()).toEqual({ n: "42", t: "1700000000", s: "last" });
    await set.execute({
      ...scopeOf(dataset),
      operations: [{ documentId: first.id, metadataList: [{ id: n.id, value: null }], partialUpdate: true }],
    });
    expect(await values()).toEqual({ t: "1700000000", s: "last" });
    await set.execute({
      ...scopeOf(dataset),
      operations: [
        { documentId: first.id, metadataList: [{ id: s.id, value: "only" }], partialUpdate: false },
      ],
    });
    expect(await values()).toEqual({ s: "only" });
  });

  it("writes nothing when any operation names a missing document or field, or a value of the wrong type", async () => {
    const { world, dataset, documents, create, set } = await setup();
    const n = await create.execute({
      ...scopeOf(dataset),
      type: "number",
      name: "n",
    });
    const good = {
      documentId: documents[0].id,
      metadataList: [{ id: n.id, value: 1 }],
      partialUpdate: false,
    };
    const cases = [
      [{ documentId: "missing", metadataList: [], partialUpdate: false }, "Document not found."],
      [
        { documentId: documents[1].id, metadataList: [{ id: "built-in", value: "x" }], partialUpdate: false },
        "Metadata not found.",
      ],
      [
        {
          documentId: documents[1].id,
          metadataList: [
            { id: n.id, value: 2 },
            { id: n.id, value: "two" },
          ],
          partialUpdate: false,
        },
        "operation_data.1.metadata_list.1.value: must be a finite number or numeric string.",
      ],
    ] as [DocumentMetadataOperation, string][];
    for (const [bad, message] of cases) {
      await expect(set.execute({ ...scopeOf(dataset), operations: [good, bad] })).rejects.toMatchObject({
        message,
      });
      expect(await world.metadata.valuesOf(documents[0].id)).toEqual([]);
    }
  });

  it("checks the dataset before anything of the operations: 404 not the workspace's, 403 API off", async () => {
    const { world, workspace, dataset, documents, create, set } = await setup();
    const field = await create.execute({
      ...scopeOf(dataset),
      type: "string",
      name: "s",
    });
    const write = {
      documentId: documents[0].id,
      metadataList: [{ id: field.id, value: "x" }],
      partialUpdate: true,
    };
    const other = aWorkspace();
    await world.workspaces.save(other);
    for (const operations of [[], [write], [{ ...write, documentId: "missing" }]]) {
      await expect(
        set.execute({ workspaceId: other.id, datasetId: dataset.id, operations }),
      ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
    }
    await world.datasets.save({ ...dataset, enableApi: false });
    await expect(
      set.execute({ workspaceId: workspace.id, datasetId: dataset.id, operations: [write] }),
    ).rejects.toMatchObject({ code: "forbidden", message: "Dataset api access is not enabled." });
    expect(await world.metadata.valuesOf(documents[0].id)).toEqual([]);
  });

  it("toggles the built-ins even when the dataset began to serve the API between the checked write and its read", async () => {
    const { world, workspace, dataset } = await setup();
    // The first checked write saw the dataset closed; by the read that followed, it was open.
    const toggle = world.datasets.setBuiltInFieldEnabled.bind(world.datasets);
    let closedFor = 1;
    world.datasets.setBuiltInFieldEnabled = async (...args) =>
      closedFor-- > 0 ? "refused" : toggle(...args);
    const scope = { workspaceId: workspace.id, datasetId: dataset.id };
    await new ToggleBuiltInFields(world.datasets, world.clock).execute({ ...scope, enabled: true });
    expect((await world.datasets.findInWorkspace(workspace.id, dataset.id))?.builtInFieldEnabled).toBe(true);
    // Refused on every try while every read says it serves: 503, nothing written.
    closedFor = 3;
    await expect(
      new ToggleBuiltInFields(world.datasets, world.clock).execute({ ...scope, enabled: false }),
    ).rejects.toMatchObject({ code: "service_unavailable" });
    expect((await world.datasets.findInWorkspace(workspace.id, dataset.id))?.builtInFieldEnabled).toBe(true);
  });

  it("writes a field even when the dataset began to serve the API between the checked write and its read", async () => {
    const { world, workspace, dataset, create, rename, remove } = await setup();
    const scope = { workspaceId: workspace.id, datasetId: dataset.id };
    const refuseOnce = <Method extends "createField" | "renameField" | "deleteField">(method: Method) => {
      const write = world.metadata[method].bind(world.metadata) as (...args: unknown[]) => Promise<unknown>;
      let closedFor = 1;
      world.metadata[method] = (async (...args: unknown[]) =>
        closedFor-- > 0 ? (method === "renameField" ? "not_found" : false) : write(...args)) as never;
    };
    refuseOnce("createField");
    const field = await create.execute({ ...scope, type: "string", name: "author" });
    refuseOnce("renameField");
    await rename.execute({ ...scope, fieldId: field.id, name: "writer" });
    expect(await world.metadata.listFields(dataset.id)).toEqual([{ ...field, name: "writer" }]);
    refuseOnce("deleteField");
    await remove.execute({ ...scope, fieldId: field.id });
    expect(await world.metadata.listFields(dataset.id)).toEqual([]);
  });

  it("shows the built-ins once enabled, moving updatedAt only on a change", async () => {
    const { world, workspace, dataset, toggle, list } = await setup();
    world.clock.now = dataset.updatedAt + 100;
    await toggle.execute({ workspaceId: workspace.id, datasetId: dataset.id, enabled: true });
    await toggle.execute({ workspaceId: workspace.id, datasetId: dataset.id, enabled: true });
    expect((await world.datasets.findInWorkspace(workspace.id, dataset.id))?.updatedAt).toBe(
      dataset.updatedAt + 100,
    );
    const listed = await list.execute({ workspaceId: workspace.id, datasetId: dataset.id });
    expect(listed.fields.map((field) => field.name)).toEqual([
      "document_name",
      "uploader",
      "upload_date",
      "last_update_date",
      "source",
    ]);
  });
});
