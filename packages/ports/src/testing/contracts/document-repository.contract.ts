import { describe, expect, it } from "vitest";
import {
  aChunk,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anUploadFile,
  aWorkspace,
} from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeDocumentRepositoryContract(openStore: OpenStore): void {
  describe("DocumentRepository contract", () => {
    const repositories = useStore(openStore);

    async function seedDataset() {
      const { workspaces, datasets } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      return { workspace, dataset };
    }

    it("finds a document with every stored field, only in its own dataset", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      const document = aDocument(dataset.id, {
        docType: "book",
        error: "boom",
        indexingStatus: "error",
        isPaused: true,
        enabled: false,
        disabledAt: 1_700_000_500,
        disabledBy: "someone",
        archived: true,
        completedAt: null,
        updatedAt: null,
        indexingLatency: 1.25,
        summaryIndexStatus: "completed",
        needSummary: true,
        dataSourceType: "thirdparty_import",
        docForm: "qa_model",
      });
      await documents.save(document);
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual(document);
      expect(await documents.findInDataset(other.id, document.id)).toBeUndefined();
      expect(await documents.findInDataset(dataset.id, aDocument(dataset.id).id)).toBeUndefined();
    });

    it("reads a document's detail with its dataset, file, chunk totals, values and creator together", async () => {
      const { documents, datasets, metadata, workspaces } = repositories();
      const { workspace, dataset } = await seedDataset();
      const creator = aMember(workspace.id, { name: "Grace" });
      await workspaces.saveMember(creator);
      const file = anUploadFile(creator.id, { name: "guide.txt", size: 42 });
      await documents.saveUploadFile(workspace.id, file);
      const document = aDocument(dataset.id, { uploadFileId: file.id, createdBy: creator.id });
      await documents.save(document);
      await documents.saveChunks([
        aChunk(document.id, { content: "héllo", hitCount: 2 }),
        aChunk(document.id, { content: "ab", hitCount: 5 }),
      ]);
      const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 2 });
      const author = aMetadataField(dataset.id, { name: "author", createdAt: 1 });
      const unused = aMetadataField(dataset.id, { name: "unused", createdAt: 3 });
      for (const field of [year, author, unused]) await metadata.saveField(field);
      await metadata.setValue(document.id, year.id, "1843");
      await metadata.setValue(document.id, author.id, "Ada");

      expect(await documents.findDetail(workspace.id, dataset.id, document.id)).toEqual({
        dataset: await datasets.findInWorkspace(workspace.id, dataset.id),
        detail: {
          document,
          uploadFile: file,
          chunks: { count: 2, hitCount: 7, characters: 7 },
          values: [
            { id: author.id, name: "author", type: "string", value: "Ada" },
            { id: year.id, name: "year", type: "number", value: "1843" },
          ],
          creatorName: "Grace",
        },
      });
    });

    it("reads a detail without file, chunks, values or a creator of the workspace as empty", async () => {
      const { documents, workspaces } = repositories();
      const { dataset, workspace } = await seedDataset();
      const elsewhere = aMember(aWorkspace().id, { name: "Stranger" });
      await workspaces.save(aWorkspace({ id: elsewhere.workspaceId }));
      await workspaces.saveMember(elsewhere);
      const document = aDocument(dataset.id, { uploadFileId: null, createdBy: elsewhere.id });
      await documents.save(document);
      const { detail } = await documents.findDetail(workspace.id, dataset.id, document.id);
      expect(detail).toEqual({
        document,
        uploadFile: undefined,
        chunks: { count: 0, hitCount: 0, characters: 0 },
        values: [],
        creatorName: null,
      });
    });

    it("reads the dataset without a detail for a document it lacks, and nothing for another workspace's dataset", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      const document = aDocument(other.id);
      await documents.save(document);
      expect(await documents.findDetail(workspace.id, dataset.id, document.id)).toEqual({
        dataset: await datasets.findInWorkspace(workspace.id, dataset.id),
        detail: undefined,
      });
      expect(await documents.findDetail(aWorkspace().id, other.id, document.id)).toEqual({
        dataset: undefined,
        detail: undefined,
      });
    });

    it("replaces a document saved again, with its new processing rule", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const document = aDocument(dataset.id);
      await documents.save(document);
      const changed = {
        ...document,
        name: "v2.txt",
        processRule: { id: "r9", mode: "custom", rules: { x: 1 } },
      };
      await documents.save(changed);
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual(changed);
    });

    it("finds an uploaded file by id", async () => {
      const { documents } = repositories();
      const { workspace } = await seedDataset();
      const file = anUploadFile("member-1");
      await documents.saveUploadFile(workspace.id, file);
      expect(await documents.findUploadFile(file.id)).toEqual(file);
      expect(await documents.findUploadFile(anUploadFile("x").id)).toBeUndefined();
    });

    it("finds the documents naming uploaded file ids, in any dataset", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      const [shared, own, unused] = [anUploadFile("m"), anUploadFile("m"), anUploadFile("m")];
      for (const file of [shared, own, unused]) await documents.saveUploadFile(workspace.id, file);
      const [first, second, third] = [
        aDocument(dataset.id, { uploadFileId: shared.id }),
        aDocument(other.id, { uploadFileId: shared.id }),
        aDocument(dataset.id, { uploadFileId: own.id }),
      ];
      for (const document of [first, second, third, aDocument(dataset.id)]) await documents.save(document);

      const holders = await documents.findUploadFileHolders([shared.id, own.id, unused.id, own.id, "none"]);
      expect(new Map([...holders].map(([id, held]) => [id, held.sort()]))).toEqual(
        new Map([
          [shared.id, [first.id, second.id].sort()],
          [own.id, [third.id]],
        ]),
      );
      expect(await documents.findUploadFileHolders([])).toEqual(new Map());
    });

    it("sums a document's chunks: count, hits and characters", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const [document, other] = [aDocument(dataset.id), aDocument(dataset.id)];
      await documents.save(document);
      await documents.save(other);
      await documents.saveChunks([
        aChunk(document.id, { content: "abc", hitCount: 2, position: 1 }),
        aChunk(document.id, { content: "héllo wörld", hitCount: 5, position: 2 }),
        aChunk(other.id, { content: "ignored", hitCount: 100 }),
      ]);
      expect(await documents.chunkStats(document.id)).toEqual({ count: 2, hitCount: 7, characters: 14 });
    });

    it("counts characters, not bytes or UTF-16 units", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const document = aDocument(dataset.id);
      await documents.save(document);
      await documents.saveChunks([aChunk(document.id, { content: "😀é" })]);
      expect((await documents.chunkStats(document.id)).characters).toBe(2);
    });

    it("has zero stats for a document without chunks", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const document = aDocument(dataset.id);
      await documents.save(document);
      expect(await documents.chunkStats(document.id)).toEqual({ count: 0, hitCount: 0, characters: 0 });
    });

    it("replaces a chunk saved again instead of counting it twice", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const document = aDocument(dataset.id);
      await documents.save(document);
      const chunk = aChunk(document.id, { content: "ab", hitCount: 1 });
      await documents.saveChunks([chunk]);
      await documents.saveChunks([{ ...chunk, content: "abcd", hitCount: 3 }]);
      expect(await documents.chunkStats(document.id)).toEqual({ count: 1, hitCount: 3, characters: 4 });
    });

    it("counts the documents of a dataset", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      for (const datasetId of [dataset.id, dataset.id, other.id]) await documents.save(aDocument(datasetId));
      expect(await documents.countInDataset(dataset.id)).toBe(2);
      expect(await documents.countInDataset(aDataset(workspace.id).id)).toBe(0);
    });

    it("knows the last position of a dataset's documents", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      expect(await documents.lastPosition(dataset.id)).toBe(0);
      for (const [datasetId, position] of [
        [dataset.id, 3],
        [dataset.id, 12],
        [dataset.id, 7],
        [other.id, 40],
      ] as const)
        await documents.save(aDocument(datasetId, { position }));
      expect(await documents.lastPosition(dataset.id)).toBe(12);
      expect(await documents.lastPosition(other.id)).toBe(40);
    });

    it("counts a document saved again once, and keeps it (and its count) where it is when a save names another dataset", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      const document = aDocument(dataset.id);
      await documents.save(document);
      await documents.save({ ...document, name: "renamed.txt" });
      expect(await documents.countInDataset(dataset.id)).toBe(1);
      expect(await documents.save({ ...document, datasetId: other.id })).toBe("owned_elsewhere");
      expect(await documents.countInDataset(dataset.id)).toBe(1);
      expect(await documents.countInDataset(other.id)).toBe(0);
    });

    it("lists a dataset's documents and a document's chunks by position", async () => {
      const { documents } = repositories();
      const { dataset } = await seedDataset();
      const second = aDocument(dataset.id, { position: 2 });
      const first = aDocument(dataset.id, { position: 1 });
      await documents.save(second);
      await documents.save(first);
      expect(await documents.listInDataset(dataset.id)).toEqual([first, second]);
      const chunks = [
        aChunk(first.id, { position: 2, content: "b" }),
        aChunk(first.id, { position: 1, content: "a" }),
      ];
      await documents.saveChunks(chunks);
      expect(await documents.listChunks(first.id)).toEqual([chunks[1], chunks[0]]);
      expect(await documents.listChunks(second.id)).toEqual([]);
    });

    it("lists a dataset's documents a page at a time after a place, by position then id in code point order", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset } = await seedDataset();
      const other = aDataset(workspace.id);
      await datasets.save(other);
      const base = globalThis.crypto.randomUUID();
      // In code point order "B" < "a" < "b": locale orders would put "a" first.
      const placed = (suffix: string, position: number) =>
        aDocument(dataset.id, { id: `${base}-${suffix}`, position });
      const [z, upperB, a, b, c, upperA] = [
        placed("z", 0),
        placed("B", 1),
        placed("a", 1),
        placed("b", 1),
        placed("c", 2),
        placed("A", 3),
      ];
      for (const document of [c, b, upperA, z, a, upperB]) await documents.save(document);
      await documents.save(aDocument(other.id, { position: 1 }));
      const inOrder = [z, upperB, a, b, c, upperA];
      expect(await documents.listInDataset(dataset.id)).toEqual(inOrder);

      // Pages of two: the second starts between two documents of one position.
      const pages = [];
      for (let page = await documents.listInDatasetAfter(dataset.id, undefined, 2); page.length > 0; ) {
        pages.push(page);
        page = await documents.listInDatasetAfter(dataset.id, page.at(-1), 2);
      }
      expect(pages).toEqual([
        [z, upperB],
        [a, b],
        [c, upperA],
      ]);
      expect(await documents.listInDatasetAfter(dataset.id, undefined, 10)).toEqual(inOrder);
      expect(await documents.listInDatasetAfter(dataset.id, { position: 1, id: a.id }, 10)).toEqual([
        b,
        c,
        upperA,
      ]);
      // A place no document holds: what comes after it.
      expect(await documents.listInDatasetAfter(dataset.id, { position: 1, id: `${base}-aa` }, 2)).toEqual([
        b,
        c,
      ]);
      expect(await documents.listInDatasetAfter(dataset.id, { position: 2, id: "" }, 10)).toEqual([
        c,
        upperA,
      ]);
      expect(await documents.listInDatasetAfter(dataset.id, upperA, 10)).toEqual([]);
    });

    it("lists no documents after any place of an empty or a missing dataset", async () => {
      const { documents } = repositories();
      const { workspace, dataset } = await seedDataset();
      const missing = aDataset(workspace.id).id;
      for (const datasetId of [dataset.id, missing]) {
        expect(await documents.listInDatasetAfter(datasetId, undefined, 10)).toEqual([]);
        expect(await documents.listInDatasetAfter(datasetId, { position: 0, id: "" }, 10)).toEqual([]);
      }
    });

    it("never moves a document, a file or a chunk: a save naming another owner's writes nothing", async () => {
      const { workspaces, datasets, documents } = repositories();
      const { workspace, dataset } = await seedDataset();
      const [elsewhere, otherWorkspace] = [aDataset(workspace.id), aWorkspace()];
      await datasets.save(elsewhere);
      await workspaces.save(otherWorkspace);
      const [document, neighbour] = [aDocument(dataset.id), aDocument(elsewhere.id)];
      expect(await documents.save(document)).toBeUndefined();
      expect(await documents.save(neighbour)).toBeUndefined();
      expect(await documents.save({ ...document, datasetId: elsewhere.id, name: "moved" })).toBe(
        "owned_elsewhere",
      );
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual(document);

      const file = anUploadFile(document.createdBy);
      expect(await documents.saveUploadFile(workspace.id, file)).toBeUndefined();
      expect(await documents.saveUploadFile(otherWorkspace.id, { ...file, name: "moved" })).toBe(
        "owned_elsewhere",
      );
      expect(await documents.findUploadFile(file.id)).toEqual(file);

      const [mine, theirs] = [aChunk(document.id), aChunk(neighbour.id, { content: "theirs" })];
      expect(await documents.saveChunks([theirs])).toEqual([]);
      const refused = await documents.saveChunks([mine, { ...theirs, documentId: document.id }]);
      expect(refused).toEqual([theirs.id]);
      expect(await documents.listChunks(document.id)).toEqual([mine]);
      expect(await documents.listChunks(neighbour.id)).toEqual([theirs]);
    });
  });
}
