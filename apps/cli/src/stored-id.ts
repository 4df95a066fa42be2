import { canonicalUuid } from "@service-api/domain";

/**
 * An id as the HTTP API reads one from a path: a UUID in any case, with or without hyphens, is
 * looked up in the form it is stored in (lowercase, hyphenated); anything else as given.
 */
export const storedId = (text: string): string => canonicalUuid(text) ?? text;
