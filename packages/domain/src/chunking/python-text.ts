// Dify's chunker is Python: lengths are `len` (code points), blanks are `str.strip()`. JavaScript's
// `.length` counts UTF-16 units and `trim()` strips another set, so both are redone here.

/**
 * The characters `str.isspace()` (and so `str.strip()` and regex `\s`) accepts in Python 3.11. Unlike
 * JavaScript's `\s` it holds U+001C–U+001F and U+0085 and lacks U+FEFF (a BOM survives a strip).
 */
export const PYTHON_WHITESPACE =
  "\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const WHITESPACE_CODES = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

const isWhitespaceAt = (text: string, index: number): boolean => WHITESPACE_CODES.has(text.charCodeAt(index));

/** Python's `len`: code points, a lone surrogate counting one, without building an array. */
export function pythonLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

/** Python's `str.strip()` with no argument. Every whitespace character is one UTF-16 unit. */
export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespaceAt(text, start)) start++;
  while (end > start && isWhitespaceAt(text, end - 1)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** `not text.strip()` in Python: empty or Python whitespace only. */
export function isPythonBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (!isWhitespaceAt(text, index)) return false;
  }
  return true;
}

/** Appends one by one: `push(...items)` overflows the stack for the million pieces of a long text. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
