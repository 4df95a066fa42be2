import { InvalidParamError, NotFoundError, tagNameProblem } from "@service-api/domain";

export const TAG_NOT_FOUND = "Tag not found";
export const TAG_NAME_TAKEN = "Tag name already exists";

/** Refuses a name the tag rules refuse (blank, then length). */
export function ensureTagName(name: string): void {
  const problem = tagNameProblem(name);
  if (problem) throw new InvalidParamError("name", problem);
}

export const tagNotFound = () => new NotFoundError(TAG_NOT_FOUND);
export const tagNameTaken = () => new InvalidParamError("name", TAG_NAME_TAKEN);
