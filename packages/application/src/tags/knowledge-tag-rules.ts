import { InvalidParamError, isPossibleId, NotFoundError, tagNameProblem } from "@service-api/domain";

export const TAG_NOT_FOUND = "Tag not found";
export const TAG_NAME_TAKEN = "Tag name already exists";
export const TAG_IDS_REQUIRED = "tag_ids: Tag IDs is required.";

/** Refuses a name the tag rules refuse (not text, blank, length, text no store holds). */
export function ensureTagName(name: unknown): void {
  const problem = tagNameProblem(name);
  if (problem) throw new InvalidParamError("name", problem);
}

export const tagNotFound = () => new NotFoundError(TAG_NOT_FOUND);
export const tagNameTaken = () => new InvalidParamError("name", TAG_NAME_TAKEN);

/** The dataset of a binding; the bindings' own words, without the period. */
export const bindingDatasetNotFound = () => new NotFoundError("Dataset not found");

/**
 * The tag ids of a binding or an unbinding, from a list (else refused); ids that can name nothing
 * are no tag of the workspace and drop out, as other such ids are ignored.
 */
export function bindingTagIds(tagIds: unknown): string[] {
  if (!Array.isArray(tagIds)) throw new InvalidParamError("tag_ids", TAG_IDS_REQUIRED);
  return tagIds.filter(isPossibleId);
}

/** A binding's workspace and dataset: ids that can name nothing name no dataset. */
export function ensureBindingTarget(workspaceId: unknown, targetId: unknown): void {
  if (!isPossibleId(workspaceId) || !isPossibleId(targetId)) throw bindingDatasetNotFound();
}
