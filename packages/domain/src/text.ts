/** A surrogate that is not half of a pair: with the `u` flag a pair reads as one code point. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether every store can hold `text` as it is: PostgreSQL's text refuses NUL, and a lone
 * surrogate has no UTF-8 form (drivers would store U+FFFD in its place). Text that fails this can
 * never have been stored, so looking it up finds nothing; storing it is refused.
 */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}

/**
 * A value as an error message shows it: text as it is, anything else as `String` gives it, or its
 * type where that throws (an object without `toString`, or whose `toString` throws).
 */
export function shownInMessage(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    return `(${typeof value})`;
  }
}
