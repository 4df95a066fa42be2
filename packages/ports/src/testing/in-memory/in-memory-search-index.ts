import {
  type Document,
  filterHolds,
  type SearchField,
  type SearchUnit,
  searchUnitsOf,
  termScore,
} from "@service-api/domain";
import type { DocumentRepository } from "../../document-repository.js";
import type { ScoringQuery, SearchIndex, SearchStatistics, SegmentHit } from "../../search-index.js";
import type { SegmentRepository } from "../../segment-repository.js";

type Reads = Pick<DocumentRepository, "listInDataset"> &
  Pick<SegmentRepository, "listOfDocument" | "listChildrenOfDocument">;

/** What a metadata filter reads of a document: its values (by field id) and its uploader's name. */
export interface FilterReads {
  valuesOf(documentId: string): Promise<{ id: string; value: string | null }[]>;
  uploaderName(document: Document): Promise<string | null>;
}

const lengthIn = (unit: SearchUnit, field: SearchField) =>
  Object.values(unit.content).reduce((sum, count) => sum + count, 0) +
  (field === "content" ? 0 : Object.values(unit.keywords).reduce((sum, count) => sum + count, 0));

const tfIn = (unit: SearchUnit, term: string, field: SearchField) =>
  (unit.content[term] ?? 0) + (field === "content" ? 0 : (unit.keywords[term] ?? 0));

const retrievable = (document: Document) =>
  document.indexingStatus === "completed" && document.enabled && !document.archived;

/**
 * BM25 over the stored segments, analyzed when asked: what a database's index holds (every
 * segment stored, disabled ones too, in its statistics), for use-case tests.
 */
export class InMemorySearchIndex implements SearchIndex {
  constructor(
    private readonly reads: Reads,
    private readonly filterReads: FilterReads,
  ) {}

  /** It holds nothing of its own: what it reads is the documents' and segments' state. */
  snapshot(): unknown {
    return undefined;
  }

  restore(): void {}

  async #units(datasetId: string) {
    const units: { unit: SearchUnit; document: Document; position: number; enabled: boolean }[] = [];
    for (const document of await this.reads.listInDataset(datasetId)) {
      const children = await this.reads.listChildrenOfDocument(document.id);
      for (const segment of await this.reads.listOfDocument(document.id)) {
        const own = children.filter((child) => child.segmentId === segment.id);
        const enabled = segment.enabled && segment.status === "completed" && retrievable(document);
        for (const unit of searchUnitsOf(segment, own, document.docForm))
          units.push({ unit, document, position: segment.position, enabled });
      }
    }
    return units;
  }

  async statistics(
    datasetId: string,
    field: SearchField,
    terms: readonly string[],
  ): Promise<SearchStatistics> {
    const units = (await this.#units(datasetId)).filter(
      ({ unit }) => field !== "content" || Object.keys(unit.content).length > 0,
    );
    const documentFrequencies = new Map<string, number>();
    for (const term of new Set(terms)) {
      const df = units.filter(({ unit }) => tfIn(unit, term, field) > 0).length;
      if (df > 0) documentFrequencies.set(term, df);
    }
    const totalLength = units.reduce((sum, { unit }) => sum + lengthIn(unit, field), 0);
    return { units: units.length, totalLength, documentFrequencies };
  }

  async topSegments(query: ScoringQuery): Promise<SegmentHit[]> {
    const allowed = query.documentIds && new Set(query.documentIds);
    const bySegment = new Map<string, SegmentHit & { position: number }>();
    const passing = new Map<string, boolean>();
    const passes = async (document: Document) => {
      if (!query.filter) return true;
      if (!passing.has(document.id)) {
        const values = new Map(
          (await this.filterReads.valuesOf(document.id)).flatMap(({ id, value }) =>
            value === null ? [] : [[id, value] as const],
          ),
        );
        const uploaderName = await this.filterReads.uploaderName(document);
        passing.set(document.id, filterHolds(query.filter, { document, values, uploaderName }));
      }
      return passing.get(document.id)!;
    };
    for (const { unit, document, position, enabled } of await this.#units(query.datasetId)) {
      if (!enabled || (allowed && !allowed.has(document.id)) || !(await passes(document))) continue;
      let score = 0;
      for (const [term, weight] of query.weights) {
        const tf = tfIn(unit, term, query.field);
        if (tf > 0)
          score += termScore(weight, tf, lengthIn(unit, query.field), query.averageLength, query.k1, query.b);
      }
      if (score === 0) continue;
      const hit = bySegment.get(unit.segmentId) ?? {
        segmentId: unit.segmentId,
        score,
        children: [],
        position,
      };
      hit.score = Math.max(hit.score, score);
      if (unit.childId) hit.children.push({ childId: unit.childId, score });
      bySegment.set(unit.segmentId, hit);
    }
    return [...bySegment.values()]
      .sort((a, b) => b.score - a.score || a.position - b.position || (a.segmentId < b.segmentId ? -1 : 1))
      .slice(0, query.topK)
      .map(({ position, ...hit }) => ({ ...hit, children: hit.children.sort((a, b) => b.score - a.score) }));
  }
}
