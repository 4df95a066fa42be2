import { isStorableText } from "./text.js";

/**
 * Whether `value` can be an id at all: a string every store can look up (`isStorableText`).
 * Anything else (not a string, a NUL, an unpaired surrogate) names nothing: it is answered as not
 * found without reaching a store, as PostgreSQL would refuse it rather than find nothing.
 */
export function isPossibleId(value: unknown): value is string {
  return typeof value === "string" && isStorableText(value);
}

/** An id no record has that every store can look up: what an id that names nothing is looked up as. */
export const NO_ID = "";

/**
 * `value` as an id to look up: itself when it can be one, else `NO_ID`. For an id read together
 * with what is checked before it (the dataset around a document), so that those checks still answer first.
 */
export const lookupId = (value: unknown): string => (isPossibleId(value) ? value : NO_ID);
