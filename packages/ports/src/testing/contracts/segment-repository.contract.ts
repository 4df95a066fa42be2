import { describe, expect, it } from "vitest";
import { aChildChunk, aDataset, aDocument, aSegment, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** What an import and an export need of segments: every field written and read back, many documents at once. */
export function describeSegmentRepositoryContract(openStore: OpenStore): void {
  describe("SegmentRepository contract: import and export", () => {
    const repositories = useStore(openStore);

    /** `count` saved documents of one dataset. */
    async function savedDocuments(count: number) {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const saved = Array.from({ length: count }, (_, position) => aDocument(dataset.id, { position }));
      for (const document of saved) await documents.save(document);
      return saved;
    }

    it("replaces a document's segments and child chunks with an import's, every field kept, other documents' left alone", async () => {
      const { segments, documents } = repositories();
      const [document, other] = await savedDocuments(2);
      const kept = aSegment(other!.id, 1);
      const keptChild = aChildChunk(kept, 1);
      expect(await segments.replaceForImport(other!.id, [kept], [keptChild])).toEqual([]);
      const old = aSegment(document!.id, 1);
      await segments.replaceForImport(document!.id, [old], [aChildChunk(old, 1)]);

      const imported = [
        aSegment(document!.id, 2, {
          content: "Q?",
          answer: "A.",
          wordCount: 4,
          hitCount: 4,
          tokens: 3,
          keywords: ["ä", "two words"],
          indexNodeId: null,
          indexNodeHash: null,
          enabled: false,
          disabledAt: 1_800_000_005,
          disabledBy: "someone",
          status: "error",
          createdBy: null,
          createdAt: null,
          updatedAt: null,
          updatedBy: "editor",
          indexingAt: null,
          completedAt: null,
          error: "failed",
          stoppedAt: 1_800_000_009,
        }),
        aSegment(document!.id, 1, { keywords: [] }),
      ];
      const children = [
        aChildChunk(imported[0]!, 1, {
          type: "customized",
          indexNodeId: null,
          indexNodeHash: null,
          createdBy: null,
          updatedAt: 1_800_000_100,
          updatedBy: "editor",
        }),
        aChildChunk(imported[1]!, 2),
        aChildChunk(imported[1]!, 1),
      ];
      expect(await segments.replaceForImport(document!.id, imported, children)).toEqual([]);
      expect(await segments.listOfDocument(document!.id)).toEqual([imported[1], imported[0]]);
      expect(await segments.listChildrenOfDocument(document!.id)).toEqual([
        children[2],
        children[1],
        children[0],
      ]);
      expect(await documents.chunkStats(document!.id)).toMatchObject({ count: 2, hitCount: 4 });
      expect(await segments.listOfDocument(other!.id)).toEqual([kept]);
      expect(await segments.listChildrenOfDocument(other!.id)).toEqual([keptChild]);

      expect(await segments.replaceForImport(document!.id, [], [])).toEqual([]);
      expect(await segments.listOfDocument(document!.id)).toEqual([]);
      expect(await segments.listChildrenOfDocument(document!.id)).toEqual([]);
    });

    it("never moves a segment or a child chunk: ids another document holds are returned, unwritten, with the children of a refused segment", async () => {
      const { segments } = repositories();
      const [document, neighbour] = await savedDocuments(2);
      const theirs = aSegment(neighbour!.id, 1);
      const theirChild = aChildChunk(theirs, 1);
      await segments.replaceForImport(neighbour!.id, [theirs], [theirChild]);

      const mine = aSegment(document!.id, 1);
      const taken = { ...theirs, documentId: document!.id, position: 2, content: "moved" };
      const children = [
        aChildChunk(mine, 1),
        { ...aChildChunk(mine, 2), id: theirChild.id },
        aChildChunk(taken, 1),
      ];
      expect(await segments.replaceForImport(document!.id, [mine, taken], children)).toEqual([
        theirs.id,
        theirChild.id,
      ]);
      expect(await segments.listOfDocument(document!.id)).toEqual([mine]);
      expect(await segments.listChildrenOfDocument(document!.id)).toEqual([children[0]]);
      expect(await segments.listOfDocument(neighbour!.id)).toEqual([theirs]);
      expect(await segments.listChildrenOfDocument(neighbour!.id)).toEqual([theirChild]);
    });

    it("reads the segments and child chunks of many documents at once, each document's as listOfDocument and listChildrenOfDocument give them", async () => {
      const { segments } = repositories();
      const [first, second, bare] = await savedDocuments(3);
      const base = globalThis.crypto.randomUUID();
      const [late, upperB, a] = [
        aSegment(first!.id, 2, { id: `${base}-0` }),
        aSegment(first!.id, 1, { id: `${base}-B` }),
        aSegment(first!.id, 1, { id: `${base}-a` }),
      ];
      const children = [
        aChildChunk(late, 1),
        aChildChunk(a, 2, { id: `${base}-c-0` }),
        aChildChunk(a, 1, { id: `${base}-c-a` }),
        aChildChunk(a, 1, { id: `${base}-c-B` }),
      ];
      await segments.replaceForImport(first!.id, [late, a, upperB], children);
      const theirs = aSegment(second!.id, 7);
      const theirChild = aChildChunk(theirs, 1);
      await segments.replaceForImport(second!.id, [theirs], [theirChild]);
      const unknown = globalThis.crypto.randomUUID();

      const read = await segments.listOfDocuments([first!.id, second!.id, bare!.id, unknown, first!.id]);
      expect([...read.keys()].sort()).toEqual([first!.id, second!.id, bare!.id, unknown].sort());
      expect(read.get(first!.id)).toEqual({
        segments: [upperB, a, late],
        children: [children[3], children[2], children[1], children[0]],
      });
      expect(read.get(first!.id)).toEqual({
        segments: await segments.listOfDocument(first!.id),
        children: await segments.listChildrenOfDocument(first!.id),
      });
      expect(read.get(second!.id)).toEqual({ segments: [theirs], children: [theirChild] });
      expect(read.get(bare!.id)).toEqual({ segments: [], children: [] });
      expect(read.get(unknown)).toEqual({ segments: [], children: [] });
      expect((await segments.listOfDocuments([])).size).toBe(0);
    });

    it("reads the segments of seventy documents at once, each under its own id", async () => {
      const { segments } = repositories();
      const many = await savedDocuments(70);
      const written = many.map((document) => {
        const segment = aSegment(document.id, 1, { content: document.id });
        return { segments: [segment], children: [aChildChunk(segment, 1)] };
      });
      for (const [index, document] of many.entries())
        await segments.replaceForImport(document.id, written[index]!.segments, written[index]!.children);
      const read = await segments.listOfDocuments(many.map((document) => document.id));
      expect(many.map((document) => read.get(document.id))).toEqual(written);
    });
  });

  describe("SegmentRepository contract: the chunks API's reads and delete", () => {
    const repositories = useStore(openStore);

    /** A document of nine segments, with what each says and its status; a second document's one. */
    async function aDocumentOfSegments() {
      const { workspaces, datasets, documents, segments } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const document = aDocument(dataset.id, { wordCount: 0 });
      const other = aDocument(dataset.id, { position: 2 });
      await documents.save(document);
      await documents.save(other);
      const contents = [
        "Alpha 50%",
        "alpha_one",
        "ALPHA",
        "beta",
        "Beta 50%",
        "gamma",
        "Ünïcode ALPHA",
        "delta",
        "alpha",
      ];
      const written = contents.map((content, index) =>
        aSegment(document.id, index + 1, {
          content,
          wordCount: [...content].length,
          status: index % 3 === 2 ? "error" : "completed",
        }),
      );
      const children = [
        aChildChunk(written[0]!, 2),
        aChildChunk(written[0]!, 1),
        aChildChunk(written[3]!, 1),
      ];
      await segments.replaceForImport(document.id, written, children);
      const foreign = aSegment(other.id, 1, { content: "alpha elsewhere" });
      await segments.replaceForImport(other.id, [foreign], []);
      const wordCount = written.reduce((sum, segment) => sum + segment.wordCount, 0);
      await documents.save({ ...document, wordCount });
      return { document, other, written, children, foreign, wordCount };
    }

    it("pages a document's segments by position, with the total, filtered by status and by text", async () => {
      const { segments } = repositories();
      const { document, written } = await aDocumentOfSegments();
      const contents = (page: { segments: { content: string }[] }) =>
        page.segments.map((segment) => segment.content);
      const all = await segments.listPageOfDocument(document.id, {}, 0, 4);
      expect(all.total).toBe(9);
      expect(all.segments).toEqual(written.slice(0, 4));
      expect((await segments.listPageOfDocument(document.id, {}, 8, 4)).segments).toEqual(written.slice(8));
      expect((await segments.listPageOfDocument(document.id, {}, 12, 4)).segments).toEqual([]);
      const errors = await segments.listPageOfDocument(document.id, { statuses: ["error"] }, 0, 20);
      expect(contents(errors)).toEqual(["ALPHA", "gamma", "alpha"]);
      const both = await segments.listPageOfDocument(
        document.id,
        { statuses: ["error", "completed"], keyword: "alpha" },
        0,
        20,
      );
      expect(both.total).toBe(5);
      expect(contents(both)).toEqual(["Alpha 50%", "alpha_one", "ALPHA", "Ünïcode ALPHA", "alpha"]);
      // `%` and `_` are themselves, not patterns.
      expect(contents(await segments.listPageOfDocument(document.id, { keyword: "50%" }, 0, 20))).toEqual([
        "Alpha 50%",
        "Beta 50%",
      ]);
      expect(contents(await segments.listPageOfDocument(document.id, { keyword: "a_o" }, 0, 20))).toEqual([
        "alpha_one",
      ]);
      expect((await segments.listPageOfDocument(document.id, { keyword: "a%a" }, 0, 20)).total).toBe(0);
      expect((await segments.listPageOfDocument(document.id, { keyword: "ünïcode" }, 0, 20)).total).toBe(0);
      expect((await segments.listPageOfDocument(document.id, { statuses: ["waiting"] }, 0, 20)).total).toBe(
        0,
      );
    });

    it("finds a segment only in its own document, and reads the children of many segments", async () => {
      const { segments } = repositories();
      const { document, other, written, children, foreign } = await aDocumentOfSegments();
      expect(await segments.findInDocument(document.id, written[4]!.id)).toEqual(written[4]);
      expect(await segments.findInDocument(document.id, foreign.id)).toBeUndefined();
      expect(await segments.findInDocument(other.id, written[4]!.id)).toBeUndefined();
      const read = await segments.listChildrenOf([written[0]!.id, written[3]!.id, written[1]!.id]);
      expect(read.get(written[0]!.id)).toEqual([children[1], children[0]]);
      expect(read.get(written[3]!.id)).toEqual([children[2]]);
      expect(read.has(written[1]!.id)).toBe(false);
      expect((await segments.listChildrenOf([])).size).toBe(0);
    });

    it("pages a segment's child chunks by position, filtered by text, with the total", async () => {
      const { segments } = repositories();
      const { document } = await aDocumentOfSegments();
      const parent = aSegment(document.id, 10, { content: "parent" });
      const children = ["Child A", "child b", "other", "CHILD c"].map((content, index) =>
        aChildChunk(parent, 4 - index, { content }),
      );
      await segments.replaceForImport(document.id, [parent], children);
      const all = await segments.listChildPageOfSegment(parent.id, undefined, 0, 10);
      expect(all).toEqual({ children: [...children].reverse(), total: 4 });
      const filtered = await segments.listChildPageOfSegment(parent.id, "child", 1, 1);
      expect(filtered).toEqual({ children: [children[1]], total: 3 });
      expect(await segments.listChildPageOfSegment(globalThis.crypto.randomUUID(), undefined, 0, 10)).toEqual(
        {
          children: [],
          total: 0,
        },
      );
    });

    it("deletes a segment with its children, taking its words off the document's, and nothing of another document", async () => {
      const { segments, documents } = repositories();
      const { document, other, written, foreign, wordCount } = await aDocumentOfSegments();
      expect(await segments.deleteInDocument(other.id, written[0]!.id)).toBe(false);
      expect(await segments.deleteInDocument(document.id, foreign.id)).toBe(false);
      expect(await segments.deleteInDocument(document.id, written[0]!.id)).toBe(true);
      expect(await segments.deleteInDocument(document.id, written[0]!.id)).toBe(false);
      expect((await segments.listOfDocument(document.id)).map((segment) => segment.id)).toEqual(
        written.slice(1).map((segment) => segment.id),
      );
      expect((await segments.listChildrenOf([written[0]!.id])).size).toBe(0);
      expect((await segments.listChildrenOfDocument(document.id)).length).toBe(1);
      expect((await documents.findInDataset(document.datasetId, document.id))?.wordCount).toBe(
        wordCount - written[0]!.wordCount,
      );
      expect(await segments.listOfDocument(other.id)).toEqual([foreign]);
      // Never below 0, whatever the document's count said.
      const stored = (await documents.findInDataset(document.datasetId, document.id))!;
      await documents.save({ ...stored, wordCount: 1 });
      expect(await segments.deleteInDocument(document.id, written[1]!.id)).toBe(true);
      expect((await documents.findInDataset(document.datasetId, document.id))?.wordCount).toBe(0);
    });
  });
}
