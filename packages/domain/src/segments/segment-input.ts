import { isPythonBlank } from "../chunking/python-text.js";
import type { DocForm } from "../document.js";
import { InvalidParamError, ProviderNotInitializeError } from "../errors.js";
import { UNSTORABLE_TEXT } from "../names.js";
import { isStorableText } from "../text.js";

/*
 * What the chunks API's writes take, checked in Dify's order (`segment_create_args_validate`, the
 * update's and the child chunk's payloads). Dify answers some of these with a 500 or stores them
 * (a blank update, a content that is no text); here each is a 400 naming the field.
 */

export const SEGMENTS_REQUIRED = "Segments is required";
export const CONTENT_EMPTY = "Content is empty";
export const ANSWER_REQUIRED = "Answer is required";
export const ANSWER_EMPTY = "Answer is empty";
export const DISABLED_SEGMENT = "Can't update disabled segment";
export const ATTACHMENTS_UNSUPPORTED = "attachment_ids: image attachments are not supported here.";

/** A segment to add, as a create names it. */
export interface SegmentDraftInput {
  content: string;
  /** A QA document's answer; null for every other form. */
  answer: string | null;
  /** The caller's keywords, or undefined for none given. */
  keywords: string[] | undefined;
}

/** What an update changes; an absent field keeps what the segment holds. */
export interface SegmentChange {
  content?: string;
  answer?: string;
  keywords?: string[];
  enabled?: boolean;
  regenerateChildChunks: boolean;
}

const isPresent = (value: unknown) => value !== undefined && value !== null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function ensureStorable(text: string, field: string): string {
  if (!isStorableText(text)) throw new InvalidParamError(field, `${field}: ${UNSTORABLE_TEXT}`);
  return text;
}

/** Content: text that is not blank (Python's `strip`, as Dify's check), and storable. */
export function readContent(value: unknown, field = "content"): string {
  if (isPresent(value) && typeof value !== "string")
    throw new InvalidParamError(field, `${field}: must be a string.`);
  if (typeof value !== "string" || isPythonBlank(value)) throw new InvalidParamError(field, CONTENT_EMPTY);
  return ensureStorable(value, field);
}

function readAnswer(value: unknown): string {
  if (!isPresent(value) || value === "") throw new InvalidParamError("answer", ANSWER_REQUIRED);
  if (typeof value !== "string") throw new InvalidParamError("answer", "answer: must be a string.");
  if (isPythonBlank(value)) throw new InvalidParamError("answer", ANSWER_EMPTY);
  return ensureStorable(value, "answer");
}

/** A list of storable strings, each once, in the order first given; undefined when absent. */
function readKeywords(value: unknown): string[] | undefined {
  if (!isPresent(value)) return undefined;
  if (!Array.isArray(value) || value.some((keyword) => typeof keyword !== "string"))
    throw new InvalidParamError("keywords", "keywords: must be a list of strings.");
  return [...new Set(value.map((keyword: string) => ensureStorable(keyword, "keywords")))];
}

/** No image chunks here: a non-empty `attachment_ids` is refused rather than dropped. */
function ensureNoAttachments(value: unknown): void {
  if (!isPresent(value)) return;
  if (!Array.isArray(value)) throw new InvalidParamError("attachment_ids", "attachment_ids: must be a list.");
  if (value.length > 0) throw new InvalidParamError("attachment_ids", ATTACHMENTS_UNSUPPORTED);
}

/** A summary is indexed by a model: none can run here. */
function ensureNoSummary(value: unknown): void {
  if (typeof value === "string" && value !== "") throw new ProviderNotInitializeError();
  if (isPresent(value) && typeof value !== "string")
    throw new InvalidParamError("summary", "summary: must be a string.");
}

function readItem(value: unknown, docForm: DocForm): SegmentDraftInput {
  if (!isRecord(value)) throw new InvalidParamError("segments", "segments: each segment must be an object.");
  const answer = docForm === "qa_model" ? readAnswer(value.answer) : null;
  const content = readContent(value.content);
  const keywords = readKeywords(value.keywords);
  ensureNoAttachments(value.attachment_ids);
  return { content, answer, keywords };
}

/**
 * A create's `segments`, in Dify's order: present (else "Segments is required"), within `limit`
 * when it is above 0 ("Exceeded maximum segments limit of N."), then each item (a QA document's
 * answer first, then the content). One item refused refuses them all.
 */
export function readSegmentDrafts(value: unknown, docForm: DocForm, limit: number): SegmentDraftInput[] {
  if (!isPresent(value)) throw new InvalidParamError("segments", SEGMENTS_REQUIRED);
  if (!Array.isArray(value)) throw new InvalidParamError("segments", "segments: must be a list.");
  if (value.length === 0) throw new InvalidParamError("segments", SEGMENTS_REQUIRED);
  if (limit > 0 && value.length > limit)
    throw new InvalidParamError("segments", `Exceeded maximum segments limit of ${limit}.`);
  return value.map((item) => readItem(item, docForm));
}

function readFlag(value: unknown, field: string): boolean | undefined {
  if (!isPresent(value)) return undefined;
  if (typeof value !== "boolean") throw new InvalidParamError(field, `${field}: must be true or false.`);
  return value;
}

/** An update's `segment`: an object whose fields, where given, are as a create's. */
export function readSegmentChange(value: unknown, docForm: DocForm): SegmentChange {
  if (!isRecord(value)) throw new InvalidParamError("segment", "segment: must be an object.");
  const change: SegmentChange = {
    regenerateChildChunks: readFlag(value.regenerate_child_chunks, "regenerate_child_chunks") ?? false,
  };
  if (isPresent(value.content)) change.content = readContent(value.content);
  if (docForm === "qa_model" && isPresent(value.answer)) change.answer = readAnswer(value.answer);
  const keywords = readKeywords(value.keywords);
  if (keywords) change.keywords = keywords;
  const enabled = readFlag(value.enabled, "enabled");
  if (enabled !== undefined) change.enabled = enabled;
  ensureNoAttachments(value.attachment_ids);
  ensureNoSummary(value.summary);
  return change;
}
