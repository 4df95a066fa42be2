export type TagType = "knowledge" | "app";

export interface Tag {
  id: string;
  workspaceId: string;
  type: TagType;
  name: string;
}

/** A tag attached to a dataset (or app). One binding per (tag, target) pair. */
export interface TagBinding {
  id: string;
  workspaceId: string;
  tagId: string;
  targetId: string;
  createdAt: number;
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
