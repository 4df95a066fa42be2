import {
  analyze,
  BM25_B,
  BM25_K1,
  bm25Weights,
  COMPARISON_OPERATORS,
  countTerms,
  type Document,
  filterHolds,
  readMetadataFilter,
} from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aDataset, aDocument, aMember, aMetadataField, aSegment, aWorkspace } from "../fixtures.js";
import { searchAsRetrieved } from "../search-as-retrieved.js";
import { type OpenStore, useStore } from "./use-store.js";

/** Each document's values: author (text), pages (number), published (time); missing where absent. */
const VALUES: Record<string, string>[] = [
  { author: "Ada Lovelace", pages: "12", published: "1700000000" },
  { author: "Charles Babbage", pages: "250", published: "1600000000" },
  { author: "ada", pages: "3.5" },
  { author: "Grace, Hopper", pages: "not a number", published: "1800000000" },
  { pages: "-7" },
  {},
];
const NAMES = ["Notes.pdf", "engine.txt", "tiny.md", "compiler.pdf", "negative.txt", "empty.txt"];

/** Values each operator is tried with, per field. */
const TRIES: Record<string, unknown[]> = {
  author: [
    "Ada",
    "ada",
    "Lovelace",
    "Grace, Hopper",
    ["ada", "Charles Babbage"],
    "ada, Charles Babbage",
    [],
    12,
  ],
  pages: [12, "3.5", 0, -7, 250, "12", [12, "250"], []],
  published: [1_700_000_000, "2023-11-14 22:13:20", 1_650_000_000],
  document_name: ["Notes", ".pdf", "engine.txt", ["tiny.md", "x"]],
  uploader: ["Ada", "Grace"],
  upload_date: ["2026-01-01 00:00:00", 1_767_225_600],
  source: ["file_upload", "notion"],
  missing_field: ["x"],
};
const NUMERIC = new Set([">", "<", "≥", "≤", "before", "after"]);
const isNumber = (value: unknown) =>
  typeof value === "number" || (typeof value === "string" && /^-?[0-9.]+$/.test(value));
const isInstant = (value: unknown) => isNumber(value) || (typeof value === "string" && /^\d{4}-/.test(value));

/** Metadata filters applied in the store's query: the same sets as the domain's own reading, every operator. */
export function describeSearchFilterContract(openStore: OpenStore): void {
  describe("SearchIndex contract: metadata filters", () => {
    const repositories = useStore(openStore);

    it("finds, for every operator and value type and both logical operators, the documents the filter holds for", async () => {
      const { workspaces, datasets, documents, segments, metadata, search } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const uploaders = [aMember(workspace.id, { name: "Ada" }), aMember(workspace.id, { name: "Grace" })];
      for (const member of uploaders) await workspaces.saveMember(member);
      const dataset = aDataset(workspace.id, { builtInFieldEnabled: true });
      await datasets.save(dataset);
      const fields = [
        aMetadataField(dataset.id, { name: "author", type: "string" }),
        aMetadataField(dataset.id, { name: "pages", type: "number" }),
        aMetadataField(dataset.id, { name: "published", type: "time" }),
      ];
      for (const field of fields) await metadata.saveField(field);
      const stored: Document[] = [];
      for (const [index, values] of VALUES.entries()) {
        const document = aDocument(dataset.id, {
          position: index + 1,
          name: NAMES[index]!,
          createdBy: uploaders[index % 2]!.id,
          createdAt: 1_767_225_600 + (index - 2) * 86_400,
          updatedAt: index === 0 ? 1_800_000_000 : null,
        });
        await documents.save(document);
        stored.push(document);
        await segments.replaceForImport(
          document.id,
          [aSegment(document.id, 1, { content: "common words" })],
          [],
        );
        for (const field of fields) {
          const value = values[field.name];
          if (value !== undefined) await metadata.setValue(document.id, field.id, value);
        }
      }
      const terms = countTerms(analyze("common"));
      const stats = await search.statistics(dataset.id, "content", Object.keys(terms));
      const { weights } = bm25Weights(terms, stats.units, stats.documentFrequencies);
      const found = async (raw: unknown) => {
        const filter = readMetadataFilter(raw, fields, true);
        const hits = await search.topSegments({
          datasetId: dataset.id,
          field: "content",
          weights,
          k1: BM25_K1,
          b: BM25_B,
          averageLength: stats.totalLength / stats.units,
          topK: 100,
          filter,
        });
        const byId = new Map(stored.map((document) => [document.id, document]));
        const segmentIds = new Set(hits.map((hit) => hit.segmentId));
        const all = await segments.listByIds([...segmentIds]);
        return {
          found: all.map((segment) => byId.get(segment.documentId)!.name).sort(),
          expected: stored
            .filter((document, index) => {
              if (!filter) return true;
              const values = new Map(
                fields.flatMap((field) => {
                  const value = VALUES[index]![field.name];
                  return value === undefined ? [] : [[field.id, value] as const];
                }),
              );
              const uploaderName = uploaders[index % 2]!.name;
              return filterHolds(filter, { document, values, uploaderName });
            })
            .map((document) => document.name)
            .sort(),
        };
      };
      let tried = 0;
      for (const [name, values] of Object.entries(TRIES))
        for (const operator of COMPARISON_OPERATORS)
          for (const value of operator.includes("empty") ? [null] : values) {
            if (
              NUMERIC.has(operator) &&
              !(operator === "before" || operator === "after" ? isInstant : isNumber)(value)
            )
              continue;
            if (
              (operator === "in" || operator === "not in") !== Array.isArray(value) &&
              typeof value !== "string"
            )
              continue;
            const raw = { conditions: [{ name, comparison_operator: operator, value }] };
            const { found: actual, expected } = await found(raw);
            expect(actual, JSON.stringify(raw)).toEqual(expected);
            tried += 1;
          }
      expect(tried).toBeGreaterThan(150);
      for (const logical_operator of ["and", "or", null]) {
        const raw = {
          logical_operator,
          conditions: [
            { name: "author", comparison_operator: "contains", value: "a" },
            { name: "pages", comparison_operator: "<", value: 100 },
            { name: "source", comparison_operator: "is", value: "file_upload" },
          ],
        };
        const { found: actual, expected } = await found(raw);
        expect(actual, JSON.stringify(raw)).toEqual(expected);
      }
      // Spot checks that the shared reading is the intended one.
      expect(
        (await found({ conditions: [{ name: "author", comparison_operator: "contains", value: "ada" }] }))
          .found,
      ).toEqual(["tiny.md"]);
      expect(
        (await found({ conditions: [{ name: "pages", comparison_operator: "<", value: 5 }] })).found,
      ).toEqual(["negative.txt", "tiny.md"]);
      expect((await found({ conditions: [{ name: "author", comparison_operator: "empty" }] })).found).toEqual(
        ["empty.txt", "negative.txt"],
      );
      expect(
        (
          await found({
            conditions: [{ name: "author", comparison_operator: "in", value: "ada, Charles Babbage" }],
          })
        ).found,
      ).toEqual(["engine.txt", "tiny.md"]);
    });

    it("narrows to thousands of documents as to a few: the best of those passing, in the order of all", async () => {
      const { workspaces, datasets, documents, segments } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      // 700 documents that score high (each its own count of "apple"), then 2,100 that score low.
      const ids: string[] = [];
      for (let index = 0; index < 2800; index++) {
        const document = aDocument(dataset.id, { position: index + 1 });
        await documents.save(document);
        const apples = index < 700 ? 2 + (index % 5) : 1;
        const content = `${"apple ".repeat(apples)}${"pear ".repeat(index % 7)}fig`;
        await segments.replaceForImport(document.id, [aSegment(document.id, 1, { content })], []);
        ids.push(document.id);
      }
      const everyHit = await searchAsRetrieved(repositories(), dataset.id, "apple", "content", {
        topK: 2800,
      });
      expect(everyHit).toHaveLength(2800);
      const documentOf = new Map(
        (await segments.listByIds(everyHit.map((hit) => hit.segmentId))).map((s) => [s.id, s.documentId]),
      );
      const narrowed = async (documentIds: string[]) => {
        const passing = new Set(documentIds);
        const expected = everyHit.filter((hit) => passing.has(documentOf.get(hit.segmentId)!)).slice(0, 10);
        const found = await searchAsRetrieved(repositories(), dataset.id, "apple", "content", {
          documentIds,
        });
        expect(expected).toHaveLength(Math.min(10, documentIds.length));
        expect(found).toHaveLength(expected.length);
        expect(found.map((hit) => hit.segmentId)).toEqual(expected.map((hit) => hit.segmentId));
        for (const [index, hit] of found.entries()) expect(hit.score).toBeCloseTo(expected[index]!.score, 9);
      };
      // A few documents; thousands whose best are among the best of all; thousands that none of
      // the best 700 units belongs to; and thousands holding every fifth of the best.
      await narrowed(ids.filter((_, index) => index % 400 === 3));
      await narrowed(ids.slice(500));
      await narrowed(ids.slice(700));
      await narrowed(ids.filter((_, index) => index >= 700 || index % 5 === 4));
    }, 120_000);
  });
}
