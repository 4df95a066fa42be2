/** Input as a direct caller may give it, from JavaScript or through a cast: what its types do not allow. */
export const loose = <T>(input: unknown): T => input as T;

/** A NUL, which PostgreSQL's text refuses, in an id or a name. */
export const NUL = "a\u0000b";

/** A well-formed id that names nothing stored. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** What a direct caller may give instead of an input object: none at all, null, text. */
export const NOT_INPUTS = [undefined, null, "x"];

/** How a use case refuses each of `NOT_INPUTS`, at the top of its `execute`. */
export const NO_INPUT = { code: "invalid_param", message: "input: must be an object." };
