import type { DocumentRepository, Repositories, Store } from "@service-api/ports";
import {
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anUploadFile,
  aWorkspace,
} from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { DeleteDocument } from "./delete-document.js";
import { ListDocuments } from "./list-documents.js";
import { UpdateDocumentStatus } from "./update-document-status.js";

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const owner = aMember(workspace.id, { name: "Ada", role: "owner" });
  await world.workspaces.saveMember(owner);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  return {
    world,
    workspace,
    owner,
    dataset,
    list: new ListDocuments(world.documents, world.datasets),
    remove: new DeleteDocument(world.documents, world.datasets),
    status: new UpdateDocumentStatus(world.store, world.clock),
  };
}

describe("document management", () => {
  it("lists a page with totals and metadata, built-ins only when enabled", async () => {
    const { world, workspace, owner, dataset, list } = await setup();
    const documents = [1, 2, 3].map((position) =>
      aDocument(dataset.id, { name: `doc ${position}`, position, createdAt: position, createdBy: owner.id }),
    );
    for (const document of documents) await world.documents.save(document);
    const field = aMetadataField(dataset.id, { name: "author" });
    await world.metadata.saveField(field);
    await world.metadata.setValue(documents[2]!.id, field.id, "Ada");
    const inDataset = { workspaceId: workspace.id, datasetId: dataset.id };
    const page = await list.execute({ ...inDataset, page: { page: 1, limit: 2 } });
    expect(page).toMatchObject({ total: 3, page: 1, limit: 2, hasMore: true });
    expect(page.items.map((item) => [item.document.name, item.metadata])).toEqual([
      ["doc 3", [{ id: field.id, name: "author", type: "string", value: "Ada" }]],
      ["doc 2", []],
    ]);
    await world.datasets.save({ ...dataset, builtInFieldEnabled: true });
    const withBuiltIns = await list.execute({ ...inDataset, page: { page: 2, limit: 2 } });
    expect(withBuiltIns.hasMore).toBe(false);
    expect(withBuiltIns.items[0]?.metadata.find((entry) => entry.name === "uploader")?.value).toBe("Ada");
    expect(
      (await list.execute({ ...inDataset, page: { page: 1, limit: 20 }, keyword: "doc\u0000" })).total,
    ).toBe(0);
  });

  it("checks the dataset with the page: 404 for another workspace's, 403 without the API, also for unstorable text", async () => {
    const { world, dataset, list } = await setup();
    const request = { page: { page: 1, limit: 20 } };
    for (const keyword of [undefined, "doc\u0000"]) {
      await expect(
        list.execute({ ...request, keyword, workspaceId: crypto.randomUUID(), datasetId: dataset.id }),
      ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
    }
    await world.datasets.save({ ...dataset, enableApi: false });
    for (const keyword of [undefined, "doc\u0000"]) {
      await expect(
        list.execute({ ...request, keyword, workspaceId: dataset.workspaceId, datasetId: dataset.id }),
      ).rejects.toMatchObject({ code: "forbidden" });
    }
  });

  it("deletes a document, but not an archived one or one of another dataset", async () => {
    const { world, workspace, dataset, remove } = await setup();
    const [kept, archived] = [aDocument(dataset.id), aDocument(dataset.id, { archived: true })];
    const other = aDataset(workspace.id);
    await world.datasets.save(other);
    const foreign = aDocument(other.id);
    for (const document of [kept, archived, foreign]) await world.documents.save(document);
    await expect(
      remove.execute({ workspaceId: workspace.id, datasetId: dataset.id, documentId: archived.id }),
    ).rejects.toMatchObject({
      code: "archived_document_immutable",
      message: "The archived document is not editable.",
    });
    await expect(
      remove.execute({ workspaceId: workspace.id, datasetId: dataset.id, documentId: foreign.id }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: "Document Not Exists.",
    });
    const file = anUploadFile("someone");
    await world.documents.saveUploadFile(workspace.id, file);
    await world.documents.save({ ...kept, uploadFileId: file.id });
    await remove.execute({ workspaceId: workspace.id, datasetId: dataset.id, documentId: kept.id });
    expect(await world.documents.findInDataset(dataset.id, kept.id)).toBeUndefined();
    expect(await world.documents.findUploadFile(file.id)).toBeUndefined();
    expect(await world.documents.findInDataset(other.id, foreign.id)).toEqual(foreign);
  });

  it("checks the dataset as it deletes: its 404 or 403 comes before the document's answer, deleting nothing", async () => {
    const { world, workspace, dataset, remove } = await setup();
    const [kept, archived] = [aDocument(dataset.id), aDocument(dataset.id, { archived: true })];
    for (const document of [kept, archived]) await world.documents.save(document);
    const deletes = (workspaceId: string) =>
      [kept.id, archived.id, "missing"].map(
        (documentId) => () => remove.execute({ workspaceId, datasetId: dataset.id, documentId }),
      );
    for (const attempt of deletes("another workspace"))
      await expect(attempt()).rejects.toMatchObject({ message: "Dataset not found." });
    await world.datasets.save({ ...dataset, enableApi: false });
    for (const attempt of deletes(workspace.id))
      await expect(attempt()).rejects.toMatchObject({ message: "Dataset api access is not enabled." });
    expect(await world.documents.findInDataset(dataset.id, kept.id)).toEqual(kept);
  });

  it("changes only documents not in the action's state, as the owner, and skips others' ids", async () => {
    const { world, workspace, owner, dataset, status } = await setup();
    const [on, off] = [
      aDocument(dataset.id, { updatedAt: 1 }),
      aDocument(dataset.id, { enabled: false, updatedAt: 1 }),
    ];
    for (const document of [on, off]) await world.documents.save(document);
    world.clock.now = 500;
    await status.execute({
      workspaceId: dataset.workspaceId,
      datasetId: dataset.id,
      action: "disable",
      documentIds: [on.id, off.id, on.id, "missing"],
    });
    expect(await world.documents.findInDataset(dataset.id, on.id)).toMatchObject({
      enabled: false,
      disabledAt: 500,
      disabledBy: owner.id,
      updatedAt: 500,
    });
    expect((await world.documents.findInDataset(dataset.id, off.id))?.updatedAt).toBe(1);
    await status.execute({
      workspaceId: dataset.workspaceId,
      datasetId: dataset.id,
      action: "archive",
      documentIds: [on.id],
    });
    expect(await world.documents.findInDataset(dataset.id, on.id)).toMatchObject({
      archived: true,
      archivedBy: owner.id,
    });
    expect((await world.datasets.findOverview(workspace.id, dataset.id))?.counts.availableDocuments).toBe(0);
  });

  it("disables nothing when any document named is not completed", async () => {
    const { world, dataset, status } = await setup();
    const [done, busy] = [
      aDocument(dataset.id),
      aDocument(dataset.id, { indexingStatus: "indexing", name: "busy.md" }),
    ];
    for (const document of [done, busy]) await world.documents.save(document);
    await expect(
      status.execute({
        workspaceId: dataset.workspaceId,
        datasetId: dataset.id,
        action: "disable",
        documentIds: [done.id, busy.id],
      }),
    ).rejects.toMatchObject({
      code: "invalid_action",
      message: "Document: busy.md is not completed.",
    });
    expect((await world.documents.findInDataset(dataset.id, done.id))?.enabled).toBe(true);
  });

  it("checks the dataset first: 404 not the workspace's, 403 API off, whatever the documents", async () => {
    const { world, workspace, dataset, status } = await setup();
    const busy = aDocument(dataset.id, { indexingStatus: "indexing" });
    await world.documents.save(busy);
    const request = { action: "disable", documentIds: [busy.id] } as const;
    await expect(
      status.execute({ workspaceId: crypto.randomUUID(), datasetId: dataset.id, ...request }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
    await world.datasets.save({ ...dataset, enableApi: false });
    await expect(
      status.execute({ workspaceId: workspace.id, datasetId: dataset.id, ...request }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("reads again under the dataset's lock when a document changed between its read and the write", async () => {
    const { world, dataset } = await setup();
    const document = aDocument(dataset.id);
    await world.documents.save(document);
    const documents = world.documents;
    // Another request sets its indexing going after the first read found it completed.
    const racing = Object.assign(Object.create(documents), {
      findForStatusUpdate: async (...args: Parameters<typeof documents.findForStatusUpdate>) => {
        const found = await documents.findForStatusUpdate(...args);
        await documents.save({ ...document, indexingStatus: "indexing" });
        return found;
      },
      updateStatus: documents.updateStatus.bind(documents),
    });
    const status = new UpdateDocumentStatus(withDocuments(world.store, racing), world.clock);
    const request = { workspaceId: dataset.workspaceId, datasetId: dataset.id, documentIds: [document.id] };
    await expect(status.execute({ ...request, action: "disable" })).rejects.toMatchObject({
      code: "invalid_action",
    });
    expect((await documents.findInDataset(dataset.id, document.id))?.enabled).toBe(true);
  });

  it("answers unavailable, writing nothing, when even under the lock the documents are not as read", async () => {
    const { world, dataset } = await setup();
    const document = aDocument(dataset.id, { enabled: false });
    await world.documents.save(document);
    let writes = 0;
    const neverAsRead = Object.assign(Object.create(world.documents), {
      findForStatusUpdate: world.documents.findForStatusUpdate.bind(world.documents),
      updateStatus: async () => {
        writes += 1;
        return false;
      },
    });
    const store = {
      repositories: { ...world.store.repositories, documents: neverAsRead },
      transaction: <T>(work: (repositories: Repositories) => Promise<T>) =>
        world.store.transaction((repositories) => work({ ...repositories, documents: neverAsRead })),
    };
    const status = new UpdateDocumentStatus(store, world.clock);
    await expect(
      status.execute({
        workspaceId: dataset.workspaceId,
        datasetId: dataset.id,
        action: "enable",
        documentIds: [document.id],
      }),
    ).rejects.toMatchObject({ code: "service_unavailable" });
    expect(writes).toBe(2);
    expect((await world.documents.findInDataset(dataset.id, document.id))?.enabled).toBe(false);
  });
});

/** The store, its documents outside a transaction replaced: what a first attempt reads and writes. */
function withDocuments(
  store: Store,
  documents: DocumentRepository,
): Pick<Store, "repositories" | "transaction"> {
  return { repositories: { ...store.repositories, documents }, transaction: store.transaction.bind(store) };
}
