import { BLANK_NAME, codePointLength, isBlank, NAME_NOT_TEXT, UNSTORABLE_NAME } from "./names.js";
import { isStorableText } from "./text.js";

export type TagType = "knowledge" | "app";

export interface Tag {
  id: string;
  workspaceId: string;
  type: TagType;
  /** Unique per workspace and type; stored as sent. */
  name: string;
  createdAt: number;
}

/** A tag with the number of targets bound to it, as the store counts them. */
export interface CountedTag extends Tag {
  bindingCount: number;
}

/** A tag attached to a dataset (or app). One binding per (tag, target) pair. */
export interface TagBinding {
  id: string;
  workspaceId: string;
  tagId: string;
  targetId: string;
  createdAt: number;
}

export const TAG_NAME_MAX_LENGTH = 50;

/**
 * Why a tag name is refused (not text, blank, length, then text no store holds), or undefined when
 * it may be used.
 */
export function tagNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return NAME_NOT_TEXT;
  if (isBlank(name)) return BLANK_NAME;
  const length = codePointLength(name);
  if (length < 1 || length > TAG_NAME_MAX_LENGTH) return "name: Name must be between 1 to 50 characters.";
  if (!isStorableText(name)) return UNSTORABLE_NAME;
  return undefined;
}

/**
 * The ids, from those requested, that may be bound to a dataset of `workspaceId`: knowledge tags
 * of that workspace. Unknown, foreign and app tags drop out silently; repeats collapse; the
 * request's order is kept.
 */
export function eligibleTagIds(
  requested: readonly string[],
  found: readonly Tag[],
  workspaceId: string,
): string[] {
  const eligible = new Set(
    found.filter((tag) => tag.workspaceId === workspaceId && tag.type === "knowledge").map((tag) => tag.id),
  );
  return [...new Set(requested)].filter((id) => eligible.has(id));
}
