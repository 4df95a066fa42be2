import {
  InvalidParamError,
  isMetadataFieldType,
  METADATA_FIELD_TYPE_REFUSED,
  METADATA_NAME_TAKEN,
  type MetadataFieldType,
  metadataFieldNameProblem,
  NotFoundError,
} from "@service-api/domain";

/** Refuses a name the field rules refuse: not text, blank, length, text no store holds, a built-in's. */
export function ensureFieldName(name: unknown): void {
  const problem = metadataFieldNameProblem(name);
  if (problem) throw new InvalidParamError("name", problem);
}

/** The field's type, one of the three values can be typed by; any other is refused, never stored. */
export function ensureFieldType(type: unknown): MetadataFieldType {
  if (!isMetadataFieldType(type)) throw new InvalidParamError("type", METADATA_FIELD_TYPE_REFUSED);
  return type;
}

export const metadataNotFound = () => new NotFoundError("Metadata not found.");
export const metadataNameTaken = () => new InvalidParamError("name", METADATA_NAME_TAKEN);
