import { hashSourceOf } from "../chunking/drafts.js";
import type { DocForm, Segment } from "../document.js";
import { InvalidParamError } from "../errors.js";
import { DISABLED_SEGMENT, type SegmentChange, type SegmentDraftInput } from "./segment-input.js";

/** Who writes and when: the acting account and the time (Unix seconds). */
export interface SegmentWrite {
  actor: string;
  now: number;
  /** SHA-256 (hex) of text: how `index_node_hash` is made. */
  sha256(text: string): string;
}

/** A segment's `word_count`: code points of its content, and of its answer in a QA document. */
export function segmentWordCount(content: string, answer: string | null, docForm: DocForm): number {
  return [...content].length + (docForm === "qa_model" ? [...(answer ?? "")].length : 0);
}

/** Dify's `generate_text_hash`: SHA-256 of the text + "None". */
export const indexNodeHashOf = (text: string, write: Pick<SegmentWrite, "sha256">): string =>
  write.sha256(hashSourceOf(text));

/**
 * A segment a caller adds, as Dify's `multi_create_segment` makes it: completed and enabled, its
 * keywords the caller's (or none), its position the store's to set.
 */
export function newSegment(
  draft: SegmentDraftInput,
  ids: { id: string; indexNodeId: string; documentId: string },
  docForm: DocForm,
  write: SegmentWrite,
): Segment {
  return {
    id: ids.id,
    documentId: ids.documentId,
    position: 0,
    content: draft.content,
    hitCount: 0,
    answer: draft.answer,
    wordCount: segmentWordCount(draft.content, draft.answer, docForm),
    tokens: 0,
    keywords: draft.keywords ?? [],
    indexNodeId: ids.indexNodeId,
    indexNodeHash: indexNodeHashOf(draft.content, write),
    enabled: true,
    disabledAt: null,
    disabledBy: null,
    status: "completed",
    createdBy: write.actor,
    createdAt: write.now,
    updatedAt: write.now,
    updatedBy: null,
    indexingAt: write.now,
    completedAt: write.now,
    error: null,
    stoppedAt: null,
  };
}

/** What an update makes of a segment: only disabled, or edited (and enabled). */
export type SegmentEdit =
  | { kind: "disabled"; segment: Segment }
  | { kind: "edited"; segment: Segment; contentChanged: boolean };

/**
 * Dify's `update_segment`: `enabled: false` on an enabled segment disables it and changes nothing
 * else; a disabled segment takes an update only with `enabled: true` ("Can't update disabled
 * segment"); any other update enables it. New content gets a new hash and is indexed anew (its
 * times, `updated_by`); content unchanged keeps them. Unlike Dify, an answer not sent is kept. A
 * segment whose content changed without keywords sent loses its old ones, which named the old
 * content (the caller extracts new ones, as Dify's keyword index does).
 */
export function editSegment(
  before: Segment,
  change: SegmentChange,
  docForm: DocForm,
  write: SegmentWrite,
): SegmentEdit {
  if (change.enabled === false && before.enabled)
    return {
      kind: "disabled",
      segment: { ...before, enabled: false, disabledAt: write.now, disabledBy: write.actor },
    };
  if (!before.enabled && change.enabled !== true) throw new InvalidParamError("segment", DISABLED_SEGMENT);
  const content = change.content ?? before.content;
  const contentChanged = content !== before.content;
  const answer = docForm === "qa_model" ? (change.answer ?? before.answer) : before.answer;
  const keywords = change.keywords?.length ? change.keywords : contentChanged ? [] : before.keywords;
  const enabled = { enabled: true, disabledAt: null, disabledBy: null };
  const segment: Segment = {
    ...before,
    ...enabled,
    content,
    answer,
    keywords,
    wordCount: segmentWordCount(content, answer, docForm),
  };
  if (!contentChanged) return { kind: "edited", segment, contentChanged };
  return {
    kind: "edited",
    contentChanged,
    segment: {
      ...segment,
      indexNodeHash: indexNodeHashOf(content, write),
      tokens: 0,
      status: "completed",
      error: null,
      indexingAt: write.now,
      completedAt: write.now,
      updatedAt: write.now,
      updatedBy: write.actor,
    },
  };
}
