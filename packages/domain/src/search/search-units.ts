import type { ChildChunk, DocForm, Segment } from "../document.js";
import { analyze, countTerms, type TermCounts } from "./analyzer.js";

/**
 * What search indexes: a text (or QA) segment's content and keywords, or in a parent-child
 * document each child chunk's content (a record is then its parent) and the parent's keywords on
 * their own. `keyword_search` reads both fields, `full_text_search` the content only.
 */
export interface SearchUnit {
  /** The segment's id, or the child chunk's. */
  id: string;
  segmentId: string;
  /** The child chunk's id; null for a segment's own unit. */
  childId: string | null;
  documentId: string;
  content: TermCounts;
  keywords: TermCounts;
}

const keywordTerms = (keywords: readonly string[]) => keywords.flatMap((keyword) => analyze(keyword));

/** A text or QA segment's unit, from its terms. */
export const segmentUnit = (segment: Segment, content: readonly string[]): SearchUnit => ({
  id: segment.id,
  segmentId: segment.id,
  childId: null,
  documentId: segment.documentId,
  content: countTerms(content),
  keywords: countTerms(keywordTerms(segment.keywords)),
});

/** A child chunk's unit, from its terms. */
export const childUnit = (child: ChildChunk, content: readonly string[]): SearchUnit => ({
  id: child.id,
  segmentId: child.segmentId,
  childId: child.id,
  documentId: child.documentId,
  content: countTerms(content),
  keywords: {},
});

/**
 * A segment's units, its content and its children's given as terms (the pipeline's, made off the
 * event loop) or analyzed here.
 */
export function searchUnitsOf(
  segment: Segment,
  children: readonly ChildChunk[],
  docForm: DocForm,
  termsOf: (text: string) => readonly string[] = analyze,
): SearchUnit[] {
  if (docForm !== "hierarchical_model") return [segmentUnit(segment, termsOf(segment.content))];
  const units = children.map((child) => childUnit(child, termsOf(child.content)));
  return segment.keywords.length > 0 ? [...units, segmentUnit(segment, [])] : units;
}
