import {
  InvalidParamError,
  METADATA_NAME_TAKEN,
  metadataFieldNameProblem,
  NotFoundError,
} from "@service-api/domain";

/** Refuses a name the field rules refuse: blank, length, a built-in's. */
export function ensureFieldName(name: string): void {
  const problem = metadataFieldNameProblem(name);
  if (problem) throw new InvalidParamError("name", problem);
}

export const metadataNotFound = () => new NotFoundError("Metadata not found.");
export const metadataNameTaken = () => new InvalidParamError("name", METADATA_NAME_TAKEN);
