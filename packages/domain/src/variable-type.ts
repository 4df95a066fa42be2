export const VARIABLE_TYPES = [
  "string",
  "number",
  "object",
  "secret",
  "file",
  "boolean",
  "array[any]",
  "array[string]",
  "array[number]",
  "array[object]",
  "array[file]",
  "array[boolean]",
] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** A JSON value as parsed from a request body. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type TypeMatch = { matches: true } | { matches: false; got: string };

export function isVariableType(value: string): value is VariableType {
  return (VARIABLE_TYPES as readonly string[]).includes(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const nonEmptyString = (value: unknown) => typeof value === "string" && value.length > 0;

/** A file input as Dify's file variables take it: a remote URL or an uploaded file's id. */
export function isFileReference(value: unknown): boolean {
  if (!isObject(value) || !nonEmptyString(value.type)) return false;
  if (value.transfer_method === "remote_url") return nonEmptyString(value.url);
  if (value.transfer_method === "local_file") return nonEmptyString(value.upload_file_id);
  return false;
}

const ELEMENT_RULES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === "string",
  secret: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
  object: isObject,
  file: isFileReference,
};

function scalarJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (isObject(value)) return "object";
  return typeof value;
}

/**
 * Whether a number past a double's range (`1e400` parses as Infinity) is in `value`, at any depth.
 * JSON cannot hold one: stored, it would turn into `null`, so no variable takes such a value.
 */
function holdsOutOfRangeNumber(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(holdsOutOfRangeNumber);
  return isObject(value) && Object.values(value).some(holdsOutOfRangeNumber);
}

/**
 * The JSON type of a value as the mismatch message names it: `number`, `array[string]`, `array[any]`…
 * A value holding an out-of-range number says so (`expects number, but got number` would not).
 */
export function describeJsonType(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) return "out-of-range number";
  const type = Array.isArray(value) ? arrayType(value) : scalarJsonType(value);
  return holdsOutOfRangeNumber(value) ? `${type} holding an out-of-range number` : type;
}

function arrayType(value: unknown[]): string {
  const elementTypes = new Set(value.map(scalarJsonType));
  const [only] = elementTypes;
  return elementTypes.size === 1 && only !== undefined && only !== "array" ? `array[${only}]` : "array[any]";
}

/**
 * Whether `value` fits `type`; a value holding an out-of-range number fits none, and a type the
 * store holds that this version does not know accepts nothing.
 */
function fits(type: VariableType, value: unknown): boolean {
  if (holdsOutOfRangeNumber(value)) return false;
  return type.startsWith("array[")
    ? matchArray(type.slice(6, -1), value)
    : ELEMENT_RULES[type]?.(value) === true;
}

/** Whether `value` may be stored in a variable of `type`. `null` never matches. */
export function matchVariableType(type: VariableType, value: unknown): TypeMatch {
  return fits(type, value) ? { matches: true } : { matches: false, got: describeJsonType(value) };
}

/** The variable types `value` may be stored in (none for `null`). */
export function typesAccepting(value: unknown): VariableType[] {
  return VARIABLE_TYPES.filter((type) => fits(type, value));
}

function matchArray(elementType: string, value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  if (elementType === "any") return true;
  const rule = ELEMENT_RULES[elementType];
  return rule !== undefined && value.every(rule);
}

export function typeMismatchMessage(name: string, expected: VariableType, got: string): string {
  return `Type mismatch: variable '${name}' expects ${expected}, but got ${got} type`;
}
