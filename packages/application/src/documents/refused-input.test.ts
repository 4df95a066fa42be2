import { aDataset, aDocument, aMember, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NO_INPUT, NOT_INPUTS, NUL, UNKNOWN_ID } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { DeleteDocument } from "./delete-document.js";
import { GetDocument } from "./get-document.js";
import { ListDocuments } from "./list-documents.js";
import { UpdateDocumentStatus } from "./update-document-status.js";

async function setup() {
  const world = createWorld({ refusingUnstorableText: true });
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  await world.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const document = aDocument(dataset.id);
  await world.documents.save(document);
  return {
    world,
    dataset,
    document,
    scope: { workspaceId: workspace.id, datasetId: dataset.id },
    get: new GetDocument(world.documents),
    list: new ListDocuments(world.documents, world.datasets),
    remove: new DeleteDocument(world.documents, world.datasets),
    status: new UpdateDocumentStatus(world.store, world.clock),
  };
}

const PAGE = "page: must be an integer of at least 1.";
const LIMIT = "limit: must be an integer from 1 to 100.";

describe("document use cases called with input their types do not allow", () => {
  it("refuse a call given no input object with invalid_param, writing nothing", async () => {
    const { world, get, list, remove, status } = await setup();
    const before = world.contents();
    for (const use of [get, list, remove, status]) {
      for (const input of NOT_INPUTS) await expect(use.execute(loose(input))).rejects.toMatchObject(NO_INPUT);
    }
    expect(world.contents()).toEqual(before);
  });

  it.each([
    [{ page: 1, limit: 0 }, LIMIT],
    [{ page: -1, limit: 20 }, PAGE],
    [{ page: 1, limit: 1e9 }, LIMIT],
    [{ page: Number.NaN, limit: 20 }, PAGE],
    [{ page: 1, limit: "x" }, LIMIT],
    [undefined, PAGE],
  ])("lists no documents for the page %j, refused before the dataset", async (page, message) => {
    const { scope, list } = await setup();
    for (const datasetId of [scope.datasetId, UNKNOWN_ID]) {
      await expect(list.execute(loose({ ...scope, datasetId, page }))).rejects.toMatchObject({
        code: "invalid_param",
        message,
      });
    }
  });

  it("refuses a keyword that is not text and a status that is none, and reads a status as the query's", async () => {
    const { scope, document, list } = await setup();
    const page = { page: 1, limit: 20 };
    await expect(list.execute(loose({ ...scope, page, keyword: 5 }))).rejects.toMatchObject({
      code: "invalid_param",
      message: "keyword: must be a string.",
    });
    await expect(list.execute(loose({ ...scope, page, status: "bogus" }))).rejects.toMatchObject({
      code: "invalid_param",
      message: "status: must be one of queuing, indexing, paused, error, available, disabled, archived.",
    });
    const active = await list.execute(loose({ ...scope, page, status: "active" }));
    expect(active.items.map((item) => item.document.id)).toEqual([document.id]);
  });

  it("answers ids that can name nothing as not found, the dataset's first, without asking the store", async () => {
    const { world, scope, document, get, list, remove } = await setup();
    const before = world.contents();
    const page = { page: 1, limit: 20 };
    for (const bad of [
      { ...scope, datasetId: NUL },
      { ...scope, workspaceId: NUL },
      { ...scope, datasetId: null },
    ]) {
      const datasetNotFound = { code: "not_found", message: "Dataset not found." };
      await expect(get.execute(loose({ ...bad, documentId: document.id }))).rejects.toMatchObject(
        datasetNotFound,
      );
      await expect(list.execute(loose({ ...bad, page }))).rejects.toMatchObject(datasetNotFound);
      await expect(remove.execute(loose({ ...bad, documentId: document.id }))).rejects.toMatchObject(
        datasetNotFound,
      );
    }
    await expect(get.execute({ ...scope, documentId: NUL, metadata: "all" })).rejects.toMatchObject({
      code: "not_found",
      message: "Document not found.",
    });
    await expect(remove.execute({ ...scope, documentId: NUL })).rejects.toMatchObject({
      code: "not_found",
      message: "Document Not Exists.",
    });
    expect(world.contents()).toEqual(before);
  });

  it("refuses a status action it does not know with invalid_action, before the dataset, changing nothing", async () => {
    const { world, scope, document, status } = await setup();
    const before = world.contents();
    for (const action of ["explode", "Enable", undefined]) {
      for (const datasetId of [scope.datasetId, NUL]) {
        await expect(
          status.execute(loose({ ...scope, datasetId, action, documentIds: [document.id] })),
        ).rejects.toMatchObject({
          code: "invalid_action",
          message: `Invalid action: ${action}. Must be one of ['enable', 'disable', 'archive', 'un_archive']`,
        });
      }
    }
    await expect(
      status.execute(loose({ ...scope, action: "disable", documentIds: document.id })),
    ).rejects.toMatchObject({ code: "invalid_param", message: "document_ids: must be a list." });
    expect(world.contents()).toEqual(before);
  });

  it("skips document ids that can name nothing, and answers a dataset that cannot be named as not found", async () => {
    const { world, scope, document, status } = await setup();
    await expect(
      status.execute({ ...scope, datasetId: NUL, action: "disable", documentIds: [document.id] }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
    await status.execute({ ...scope, action: "disable", documentIds: [NUL, document.id, "\udc00"] });
    expect((await world.documents.findInDataset(scope.datasetId, document.id))?.enabled).toBe(false);
  });
});
