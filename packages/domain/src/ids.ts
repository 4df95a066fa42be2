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

/** A UUID, its hyphens optional, in any case. */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** The stored form itself: most ids arrive so, and need no rewriting. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * `text` as stored ids are written, when it is a UUID (any case, hyphens optional, as Dify's
 * `uuid.UUID` reads one): lowercase and hyphenated. Undefined when it is no UUID.
 */
export function canonicalUuid(text: string): string | undefined {
  if (CANONICAL_UUID.test(text)) return text;
  if (!UUID.test(text)) return undefined;
  const hex = text.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
