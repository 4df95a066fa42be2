import { InvalidParamError, isStorableText, UNSTORABLE_TEXT } from "@service-api/domain";

/*
 * Shape checks of a direct caller's input, which TypeScript's types do not make at run time: what
 * would otherwise crash or be stored as junk. Each names the field as the API does.
 */

/** Refuses anything but text, or nothing at all for an optional field. */
export function ensureOptionalText(value: unknown, field: string): asserts value is string | undefined {
  if (value !== undefined && typeof value !== "string")
    throw new InvalidParamError(field, `${field}: must be a string.`);
}

/** Refuses text no store can hold as sent (NUL, an unpaired surrogate); anything else passes. */
export function ensureStorableText(value: unknown, field: string): void {
  if (typeof value === "string" && !isStorableText(value))
    throw new InvalidParamError(field, `${field}: ${UNSTORABLE_TEXT}`);
}

export function ensureBoolean(value: unknown, field: string): asserts value is boolean {
  if (typeof value !== "boolean") throw new InvalidParamError(field, `${field}: must be true or false.`);
}

export function ensureList(value: unknown, field: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new InvalidParamError(field, `${field}: must be a list.`);
}

export function ensureObject(value: unknown, field: string): asserts value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidParamError(field, `${field}: must be an object.`);
}

/** Refuses a call given no input object at all (none, null, text), before any of its fields is read. */
export function ensureInput(input: unknown): asserts input is object {
  ensureObject(input, "input");
}
