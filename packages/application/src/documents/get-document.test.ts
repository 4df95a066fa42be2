import {
  aChunk,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anUploadFile,
  aWorkspace,
} from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { GetDocument } from "./get-document.js";

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const member = aMember(workspace.id, { name: "Grace" });
  await world.workspaces.saveMember(member);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const file = anUploadFile(member.id);
  await world.documents.saveUploadFile(workspace.id, file);
  const document = aDocument(dataset.id, { uploadFileId: file.id, createdBy: member.id });
  await world.documents.save(document);
  await world.documents.saveChunks([
    aChunk(document.id, { content: "abcd", hitCount: 3 }),
    aChunk(document.id, { content: "ab", hitCount: 1 }),
  ]);
  const author = aMetadataField(dataset.id, { name: "author" });
  await world.metadata.saveField(author);
  await world.metadata.setValue(document.id, author.id, "Ada");
  const getDocument = new GetDocument(world.documents);
  const input = {
    workspaceId: workspace.id,
    datasetId: dataset.id,
    documentId: document.id,
    metadata: undefined,
  };
  return { world, workspace, dataset, document, file, author, getDocument, input };
}

describe("GetDocument", () => {
  it("shows the whole document by default, with its file, chunk figures and metadata", async () => {
    const { getDocument, input, file, author } = await setup();
    const result = await getDocument.execute(input);
    expect(result.view).toBe("all");
    expect(result.document).toMatchObject({
      uploadFile: file,
      segmentCount: 2,
      hitCount: 4,
      averageSegmentLength: 3,
      docMetadata: [{ id: author.id, name: "author", type: "string", value: "Ada" }],
    });
  });

  it("adds the built-in fields, naming the uploader, when the dataset enables them", async () => {
    const { world, dataset, getDocument, input } = await setup();
    await world.datasets.save({ ...dataset, builtInFieldEnabled: true });
    const result = await getDocument.execute({ ...input, metadata: "only" });
    if (result.view !== "only") throw new Error(`expected the only view, got ${result.view}`);
    const { document } = result;
    expect(result.document).toEqual({ id: document.id, docType: null, docMetadata: expect.any(Array) });
    expect(document.docMetadata.map((entry) => entry.name)).toEqual([
      "author",
      "document_name",
      "uploader",
      "upload_date",
      "last_update_date",
      "source",
    ]);
    expect(document.docMetadata.find((entry) => entry.name === "uploader")?.value).toBe("Grace");
  });

  it("checks the dataset, then the document, then the metadata value", async () => {
    const { world, dataset, getDocument, input } = await setup();
    await expect(
      getDocument.execute({ ...input, documentId: "missing", metadata: "bad" }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: "Document not found.",
    });
    await expect(getDocument.execute({ ...input, metadata: "bad" })).rejects.toMatchObject({
      code: "invalid_metadata",
    });
    await world.datasets.save({ ...dataset, enableApi: false });
    await expect(getDocument.execute({ ...input, documentId: "missing" })).rejects.toMatchObject({
      code: "forbidden",
      message: "Dataset api access is not enabled.",
    });
  });

  it("does not show another workspace's dataset", async () => {
    const { getDocument, input } = await setup();
    await expect(getDocument.execute({ ...input, workspaceId: aWorkspace().id })).rejects.toMatchObject({
      code: "not_found",
      message: "Dataset not found.",
    });
  });

  it("leaves the upload file out when its row is gone", async () => {
    const { world, document, getDocument, input } = await setup();
    await world.documents.save({ ...document, uploadFileId: "gone" });
    const result = await getDocument.execute(input);
    expect(result.view === "all" && result.document.uploadFile).toBeUndefined();
  });
});
