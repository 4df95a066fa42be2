import { NotFoundError } from "@service-api/domain";
import { aDataset, aDocument, aSegment, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { DeleteSegment } from "./delete-segment.js";
import { GetSegment } from "./get-segment.js";
import { ListSegments } from "./list-segments.js";

async function aDocumentWithSegments() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await world.datasets.save(dataset);
  const document = aDocument(dataset.id, { wordCount: 30, docForm: "text_model" });
  await world.documents.save(document);
  const segments = ["one", "two", "three"].map((content, index) =>
    aSegment(document.id, index + 1, { content, wordCount: 10 }),
  );
  await world.segments.replaceForImport(document.id, segments, []);
  const scope = { workspaceId: workspace.id, datasetId: dataset.id, documentId: document.id };
  return {
    world,
    scope,
    segments,
    list: new ListSegments(world.datasets, world.documents, world.segments),
    get: new GetSegment(world.datasets, world.documents, world.segments),
    remove: new DeleteSegment(world.store),
  };
}

describe("the chunks use cases", () => {
  it("list a page with Dify's has_more, and nothing for text no store can hold", async () => {
    const { list, scope } = await aDocumentWithSegments();
    const page = await list.execute({ ...scope, page: { page: 1, limit: 2 } });
    expect(page).toMatchObject({ total: 3, hasMore: true, page: 1, limit: 2, docForm: "text_model" });
    expect(page.segments.map(({ segment }) => segment.content)).toEqual(["one", "two"]);
    expect((await list.execute({ ...scope, page: { page: 2, limit: 2 } })).hasMore).toBe(false);
    const unstorable = await list.execute({ ...scope, page: { page: 1, limit: 2 }, keyword: "\u0000" });
    expect(unstorable).toMatchObject({ segments: [], total: 0 });
  });

  it("check the dataset, then the document, then the segment", async () => {
    const { list, get, remove, scope, segments } = await aDocumentWithSegments();
    const missing = globalThis.crypto.randomUUID();
    const page = { page: 1, limit: 20 };
    await expect(list.execute({ ...scope, datasetId: missing, documentId: missing, page })).rejects.toThrow(
      "Dataset not found.",
    );
    await expect(list.execute({ ...scope, documentId: missing, page })).rejects.toThrow(
      "Document not found.",
    );
    await expect(get.execute({ ...scope, documentId: missing, segmentId: missing })).rejects.toThrow(
      "Document not found.",
    );
    await expect(get.execute({ ...scope, segmentId: missing })).rejects.toThrow(NotFoundError);
    await expect(remove.execute({ ...scope, segmentId: "not an id" })).rejects.toThrow("Segment not found.");
    expect((await get.execute({ ...scope, segmentId: segments[1]!.id })).segment).toEqual(segments[1]);
  });

  it("delete a segment and take its words off the document, writing nothing when refused", async () => {
    const { world, remove, scope, segments } = await aDocumentWithSegments();
    const before = world.contents();
    await expect(remove.execute({ ...scope, segmentId: globalThis.crypto.randomUUID() })).rejects.toThrow(
      "Segment not found.",
    );
    expect(world.contents()).toEqual(before);
    await remove.execute({ ...scope, segmentId: segments[0]!.id });
    expect((await world.segments.listOfDocument(scope.documentId)).map((segment) => segment.content)).toEqual(
      ["two", "three"],
    );
    expect((await world.documents.findInDataset(scope.datasetId, scope.documentId))?.wordCount).toBe(20);
  });
});
