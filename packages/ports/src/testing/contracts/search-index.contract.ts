import { analyze, BM25_B, BM25_K1, countTerms, type Segment } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aChildChunk, aDataset, aDocument, aSegment, aWorkspace } from "../fixtures.js";
import { searchAsRetrieved as search } from "../search-as-retrieved.js";
import { type OpenStore, useStore } from "./use-store.js";

const TEXTS = [
  "Supersonic flow over a flat plate: the boundary layer thickens downstream.",
  "Heat transfer in laminar boundary layers of compressible flow.",
  "A note on the buckling of thin cylindrical shells under axial compression.",
  "Boundary layer transition at supersonic speeds, measured in a wind tunnel.",
  "Shells, shells and more shells: the vibration of conical shells.",
  "Flow separation ahead of a forward-facing step in supersonic flow.",
];

/** Textbook BM25 of each text for the query, by hand, over the texts given. */
function referenceScores(texts: readonly string[], query: string): number[] {
  const documents = texts.map((text) => countTerms(analyze(text)));
  const lengths = documents.map((terms) => Object.values(terms).reduce((sum, count) => sum + count, 0));
  const average = lengths.reduce((sum, length) => sum + length, 0) / documents.length;
  const queryTerms = countTerms(analyze(query));
  return documents.map((terms, index) => {
    let score = 0;
    for (const [term, count] of Object.entries(queryTerms)) {
      const df = documents.filter((other) => (other[term] ?? 0) > 0).length;
      const tf = terms[term] ?? 0;
      if (df === 0 || tf === 0) continue;
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
      score +=
        (count * idf * tf * (BM25_K1 + 1)) /
        (tf + BM25_K1 * (1 - BM25_B + (BM25_B * lengths[index]!) / average));
    }
    return score;
  });
}

/** The search index every segment write keeps: BM25 as textbook, over what can be retrieved. */
export function describeSearchIndexContract(openStore: OpenStore): void {
  describe("SearchIndex contract", () => {
    const repositories = useStore(openStore);

    async function aDatasetOf(
      texts: readonly string[],
      docForm: "text_model" | "hierarchical_model" = "text_model",
      segmentOf: (index: number) => Partial<Segment> = () => ({}),
    ) {
      const { workspaces, datasets, documents, segments } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const document = aDocument(dataset.id, { docForm });
      await documents.save(document);
      const written = texts.map((content, index) =>
        aSegment(document.id, index + 1, { content, keywords: [], ...segmentOf(index) }),
      );
      await segments.replaceForImport(document.id, written, []);
      return { dataset, document, written };
    }

    it("scores every segment as a straightforward BM25 does, best first, over the dataset's own segments", async () => {
      const { dataset, written } = await aDatasetOf(TEXTS);
      const other = await aDatasetOf(["supersonic supersonic supersonic boundary"]);
      const query = "supersonic boundary layer flow";
      const expected = referenceScores(TEXTS, query);
      const hits = await search(repositories(), dataset.id, query);
      const ranked = expected
        .map((score, index) => ({ score, id: written[index]!.id, position: index + 1 }))
        .filter(({ score }) => score > 0)
        .sort((a, b) => b.score - a.score || a.position - b.position);
      expect(hits.map((hit) => hit.segmentId)).toEqual(ranked.map(({ id }) => id));
      for (const [index, hit] of hits.entries()) {
        expect(hit.score).toBeCloseTo(ranked[index]!.score, 9);
        expect(hit.children).toEqual([]);
      }
      expect(hits.map((hit) => hit.segmentId)).not.toContain(other.written[0]!.id);
      expect(await search(repositories(), dataset.id, query, "content", { topK: 2 })).toEqual(
        hits.slice(0, 2),
      );
      expect(await search(repositories(), dataset.id, "nothing matches")).toEqual([]);
      const stats = await repositories().search.statistics(dataset.id, "content", ["shell", "absent"]);
      expect(stats).toEqual({
        units: TEXTS.length,
        totalLength: TEXTS.reduce((sum, text) => sum + analyze(text).length, 0),
        documentFrequencies: new Map([["shell", 2]]),
      });
    });

    it("finds keywords only in keyword search, and keeps the index right through edits and deletes", async () => {
      const { segments } = repositories();
      const { dataset, document, written } = await aDatasetOf(TEXTS);
      const [first, second] = written as [(typeof written)[0], (typeof written)[0]];
      await segments.updateInDocument(document.id, { ...first, keywords: ["Hypersonic"] });
      expect(await search(repositories(), dataset.id, "hypersonic")).toEqual([]);
      expect(
        (await search(repositories(), dataset.id, "hypersonic", "content_and_keywords")).map(
          (hit) => hit.segmentId,
        ),
      ).toEqual([first.id]);
      await segments.updateInDocument(document.id, { ...second, content: "Hypersonic heating" });
      expect((await search(repositories(), dataset.id, "hypersonic")).map((hit) => hit.segmentId)).toEqual([
        second.id,
      ]);
      expect(await search(repositories(), dataset.id, "laminar")).toEqual([]);
      await segments.deleteInDocument(document.id, second.id);
      expect(await search(repositories(), dataset.id, "hypersonic")).toEqual([]);
      const [added] = await segments.appendToDocument(
        document.id,
        [aSegment(document.id, 0, { content: "Laminar hypersonic wake", keywords: [] })],
        [],
      );
      expect((await search(repositories(), dataset.id, "laminar")).map((hit) => hit.segmentId)).toEqual([
        added!.id,
      ]);
      const stats = await repositories().search.statistics(dataset.id, "content_and_keywords", ["hyperson"]);
      expect(stats.units).toBe(TEXTS.length);
      expect(stats.documentFrequencies.get("hyperson")).toBe(2);
    });

    it("never finds a disabled segment, nor a segment of a disabled, archived or unfinished document, nor one filtered out", async () => {
      const { segments, documents } = repositories();
      const { dataset, document, written } = await aDatasetOf(TEXTS);
      const shells = async (documentIds?: string[]) =>
        (await search(repositories(), dataset.id, "shells", "content", { documentIds })).map(
          (hit) => hit.segmentId,
        );
      expect(await shells()).toEqual([written[4]!.id, written[2]!.id]);
      await segments.updateInDocument(document.id, { ...written[4]!, enabled: false });
      expect(await shells()).toEqual([written[2]!.id]);
      expect(await shells([])).toEqual([]);
      expect(await shells([document.id])).toEqual([written[2]!.id]);
      for (const change of [
        { enabled: false },
        { archived: true },
        { indexingStatus: "indexing" as const },
      ]) {
        await documents.save({ ...document, ...change });
        expect(await shells()).toEqual([]);
      }
      await documents.save(document);
      expect(await shells()).toEqual([written[2]!.id]);
    });

    it("keeps the exact top k, ties by position, however many of the best-scoring segments cannot be retrieved", async () => {
      // 300 segments, ten of each term frequency 1–30; those of the highest `disabled` frequencies off.
      const texts = Array.from({ length: 300 }, (_, index) => `${"shells ".repeat(1 + (index % 30))}plate`);
      for (const disabledFrequencies of [0, 5, 20]) {
        const enabledOf = (index: number) => index % 30 < 30 - disabledFrequencies;
        const { dataset, written } = await aDatasetOf(texts, "text_model", (index) => ({
          enabled: enabledOf(index),
        }));
        const scores = referenceScores(texts, "shells");
        const expected = written
          .map((segment, index) => ({ id: segment.id, score: scores[index]!, index }))
          .filter(({ index }) => enabledOf(index))
          .sort((a, b) => b.score - a.score || a.index - b.index);
        for (const topK of [5, 15]) {
          const hits = await search(repositories(), dataset.id, "shells", "content", { topK });
          expect(
            hits.map((hit) => hit.segmentId),
            `${disabledFrequencies} off, top ${topK}`,
          ).toEqual(expected.slice(0, topK).map(({ id }) => id));
          for (const [index, hit] of hits.entries()) expect(hit.score).toBeCloseTo(expected[index]!.score, 9);
        }
      }
    });

    it("ranks segments that tie by their position, however many tie and whatever order they were written in", async () => {
      // 300 segments of one text, written last position first; every seventh one off.
      const texts = Array.from({ length: 300 }, () => "shells plate");
      const enabledOf = (index: number) => index % 7 !== 0;
      const { dataset, written } = await aDatasetOf(texts, "text_model", (index) => ({
        position: 300 - index,
        enabled: enabledOf(index),
      }));
      const expected = written
        .filter((_, index) => enabledOf(index))
        .sort((a, b) => a.position - b.position)
        .map((segment) => segment.id);
      for (const topK of [10, 50, 200]) {
        const hits = await search(repositories(), dataset.id, "shells", "content", { topK });
        expect(
          hits.map((hit) => hit.segmentId),
          `top ${topK}`,
        ).toEqual(expected.slice(0, topK));
      }
    });

    it("ranks parents whose children tie by the parents' positions, however many children tie", async () => {
      // 100 parents of five children of one text each, written last position first.
      const { segments } = repositories();
      const { dataset, document, written } = await aDatasetOf(
        Array.from({ length: 100 }, () => "Parent"),
        "hierarchical_model",
        (index) => ({ position: 100 - index }),
      );
      const children = written.flatMap((parent) =>
        Array.from({ length: 5 }, (_, index) => aChildChunk(parent, index + 1, { content: "shells plate" })),
      );
      await segments.replaceForImport(document.id, written, children);
      const expected = [...written].sort((a, b) => a.position - b.position).map((parent) => parent.id);
      for (const topK of [10, 40]) {
        const hits = await search(repositories(), dataset.id, "shells", "content", { topK });
        expect(
          hits.map((hit) => hit.segmentId),
          `top ${topK}`,
        ).toEqual(expected.slice(0, topK));
        expect(hits.every((hit) => hit.children.length === 5)).toBe(true);
      }
    });

    it("searches a parent-child document by its child chunks, answering each parent once with its matching children", async () => {
      const { segments } = repositories();
      const { dataset, document, written } = await aDatasetOf(
        ["Parent one", "Parent two"],
        "hierarchical_model",
      );
      const children = [
        aChildChunk(written[0]!, 1, { content: "Supersonic flow" }),
        aChildChunk(written[0]!, 2, { content: "Supersonic supersonic flow" }),
        aChildChunk(written[1]!, 1, { content: "Heat" }),
      ];
      await segments.replaceForImport(document.id, written, children);
      const expected = referenceScores(
        ["Supersonic flow", "Supersonic supersonic flow", "Heat"],
        "supersonic",
      );
      const hits = await search(repositories(), dataset.id, "supersonic");
      expect(hits.map((hit) => hit.segmentId)).toEqual([written[0]!.id]);
      expect(hits[0]!.score).toBeCloseTo(expected[1]!, 9);
      expect(hits[0]!.children.map((child) => child.childId)).toEqual([children[1]!.id, children[0]!.id]);
      expect(hits[0]!.children[1]!.score).toBeCloseTo(expected[0]!, 9);
      await segments.deleteChild(written[0]!.id, children[1]!.id);
      expect((await search(repositories(), dataset.id, "supersonic"))[0]!.children).toHaveLength(1);
      await segments.updateChild({ ...children[2]!, content: "Supersonic heat" });
      expect((await search(repositories(), dataset.id, "supersonic")).map((hit) => hit.segmentId)).toEqual([
        written[0]!.id,
        written[1]!.id,
      ]);
    });
  });
}
