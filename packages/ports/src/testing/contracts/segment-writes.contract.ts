import { describe, expect, it } from "vitest";
import { aChildChunk, aDataset, aDocument, aSegment, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** What the chunks API writes: segments added and edited in place, child chunks added, edited, deleted. */
export function describeSegmentWritesContract(openStore: OpenStore): void {
  describe("SegmentRepository contract: the chunks API's writes", () => {
    const repositories = useStore(openStore);

    /** A document of two segments (positions 1 and 4), the first with two children; another document's one. */
    async function aDocumentOfSegments() {
      const { workspaces, datasets, documents, segments } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const document = aDocument(dataset.id, { wordCount: 40 });
      const other = aDocument(dataset.id, { position: 2, wordCount: 20 });
      await documents.save(document);
      await documents.save(other);
      const written = [aSegment(document.id, 1), aSegment(document.id, 4)];
      const children = [aChildChunk(written[0]!, 1), aChildChunk(written[0]!, 3)];
      await segments.replaceForImport(document.id, written, children);
      const foreign = aSegment(other.id, 9);
      await segments.replaceForImport(other.id, [foreign], [aChildChunk(foreign, 7)]);
      return { document, other, written, children, foreign };
    }

    const wordsOf = async (documentId: string, datasetId: string) =>
      (await repositories().documents.findInDataset(datasetId, documentId))?.wordCount;

    it("appends segments after the largest position, with their children, adding their words to the document's", async () => {
      const { segments } = repositories();
      const { document, other, written, foreign } = await aDocumentOfSegments();
      const added = [
        aSegment(document.id, 1, { wordCount: 5, content: "first added" }),
        aSegment(document.id, 1, { wordCount: 7, content: "second added" }),
      ];
      const child = aChildChunk(added[1]!, 1);
      const stored = await segments.appendToDocument(document.id, added, [child]);
      expect(stored).toEqual([
        { ...added[0], position: 5 },
        { ...added[1], position: 6 },
      ]);
      expect(await segments.listOfDocument(document.id)).toEqual([...written, ...stored]);
      expect((await segments.listChildrenOf([added[1]!.id])).get(added[1]!.id)).toEqual([child]);
      expect(await wordsOf(document.id, document.datasetId)).toBe(52);
      // Another document's positions and words are its own; an empty document starts at 1.
      expect(await segments.listOfDocument(other.id)).toEqual([foreign]);
      expect(await wordsOf(other.id, other.datasetId)).toBe(20);
      await segments.replaceForImport(other.id, [], []);
      const [onlyOne] = await segments.appendToDocument(other.id, [aSegment(other.id, 30)], []);
      expect(onlyOne?.position).toBe(1);
    });

    it("writes a segment in place, its position kept, the document's words moved by the difference and never below 0", async () => {
      const { segments, documents } = repositories();
      const { document, other, written, children, foreign } = await aDocumentOfSegments();
      const edited = {
        ...written[0]!,
        position: 99,
        content: "edited",
        wordCount: 6,
        keywords: ["kept", "order"],
        enabled: false,
        disabledAt: 1_800_000_100,
        disabledBy: "editor",
        updatedBy: "editor",
        status: "error" as const,
        error: "why",
      };
      expect(await segments.updateInDocument(other.id, edited)).toBe(false);
      expect(await segments.updateInDocument(document.id, { ...foreign, content: "x" })).toBe(false);
      expect(await segments.updateInDocument(document.id, edited)).toBe(true);
      expect(await segments.findInDocument(document.id, edited.id)).toEqual({ ...edited, position: 1 });
      expect(await wordsOf(document.id, document.datasetId)).toBe(26);
      // Without children given, the segment keeps its own.
      expect((await segments.listChildrenOf([edited.id])).get(edited.id)).toEqual(children);
      expect(await segments.listOfDocument(other.id)).toEqual([foreign]);

      const regenerated = [aChildChunk(edited, 1, { content: "new child" })];
      expect(await segments.updateInDocument(document.id, { ...edited, wordCount: 6 }, regenerated)).toBe(
        true,
      );
      expect((await segments.listChildrenOf([edited.id])).get(edited.id)).toEqual(regenerated);
      await documents.save({
        ...(await documents.findInDataset(document.datasetId, document.id))!,
        wordCount: 3,
      });
      expect(await segments.updateInDocument(document.id, { ...written[1]!, wordCount: 1 })).toBe(true);
      expect(await wordsOf(document.id, document.datasetId)).toBe(0);
    });

    it("adds, edits and deletes a segment's child chunks, positions after the largest, nothing of another segment touched", async () => {
      const { segments } = repositories();
      const { written, children, foreign } = await aDocumentOfSegments();
      const [parent, childless] = written as [(typeof written)[0], (typeof written)[0]];
      const added = await segments.appendChild(
        aChildChunk(parent, 1, { type: "customized", content: "mine" }),
      );
      expect(added.position).toBe(4);
      expect(await segments.findChildOfSegment(parent.id, added.id)).toEqual(added);
      expect(await segments.findChildOfSegment(childless.id, added.id)).toBeUndefined();
      expect((await segments.appendChild(aChildChunk(childless, 8))).position).toBe(1);

      const edited = { ...added, position: 50, content: "edited", wordCount: 6, updatedAt: 1_800_000_200 };
      expect(await segments.updateChild({ ...edited, segmentId: childless.id })).toBe(false);
      expect(await segments.updateChild(edited)).toBe(true);
      expect(await segments.findChildOfSegment(parent.id, added.id)).toEqual({ ...edited, position: 4 });

      expect(await segments.deleteChild(foreign.id, children[0]!.id)).toBe(false);
      expect(await segments.deleteChild(parent.id, children[0]!.id)).toBe(true);
      expect(await segments.deleteChild(parent.id, children[0]!.id)).toBe(false);
      expect((await segments.listChildrenOf([parent.id])).get(parent.id)?.map((child) => child.id)).toEqual([
        children[1]!.id,
        added.id,
      ]);
      expect((await segments.listChildrenOf([foreign.id])).get(foreign.id)).toHaveLength(1);
    });

    it("filters by keyword what every write left: appended, edited and deleted segments, imports replaced, FTS syntax as text", async () => {
      const { segments } = repositories();
      const { document, other, written } = await aDocumentOfSegments();
      const matching = async (documentId: string, keyword: string) =>
        (await segments.listPageOfDocument(documentId, { keyword }, 0, 50)).segments.map(
          (segment) => segment.content,
        );
      const [added] = await segments.appendToDocument(
        document.id,
        [aSegment(document.id, 1, { content: 'Reset the WIDGET: "hold" NEAR(a b) * OR x' })],
        [],
      );
      await segments.appendToDocument(other.id, [aSegment(other.id, 1, { content: "another widget" })], []);
      expect(await matching(document.id, "widget")).toEqual([added!.content]);
      expect(await matching(other.id, "WIDGET")).toEqual(["another widget"]);
      for (const syntax of ['"hold"', "NEAR(a b)", "* OR", 'T: "']) {
        expect(await matching(document.id, syntax), syntax).toEqual([added!.content]);
      }
      expect(await matching(document.id, "hold NEAR")).toEqual([]);

      expect(await segments.updateInDocument(document.id, { ...added!, content: "Gadget reset" })).toBe(true);
      expect(await matching(document.id, "widget")).toEqual([]);
      expect(await matching(document.id, "gadget")).toEqual(["Gadget reset"]);
      expect(await segments.deleteInDocument(document.id, added!.id)).toBe(true);
      expect(await matching(document.id, "gadget")).toEqual([]);

      await segments.replaceForImport(
        document.id,
        [
          aSegment(document.id, 1, { content: "imported gadget" }),
          { ...written[1]!, content: "kept gadget" },
        ],
        [],
      );
      expect(await matching(document.id, "gadget")).toEqual(["imported gadget", "kept gadget"]);
      expect(await matching(other.id, "gadget")).toEqual([]);
    });
  });
}
