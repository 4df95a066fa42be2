// Dify's extractors are Python: `str.strip()`, `\s` and `str.isspace()` know a different set of
// whitespace than JavaScript's `trim()` and `\s`. Python's has U+001C–U+001F and U+0085 and lacks
// U+FEFF, so a UTF-8 BOM survives a strip, as in Dify (a porting trap: JS `trim()` removes it).
const PYTHON_WHITESPACE_CLASS =
  "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** One character of Python's `str.isspace()`, for building patterns. */
export const PYTHON_WHITESPACE = `[${PYTHON_WHITESPACE_CLASS}]`;

const LEADING = new RegExp(`^${PYTHON_WHITESPACE}+`);
const TRAILING = new RegExp(`${PYTHON_WHITESPACE}+$`);

/** Python's `str.strip()` with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(LEADING, "").replace(TRAILING, "");
}

/** Python's universal newlines when a file is read in text mode: `\r\n` and a lone `\r` become `\n`. */
export function translateNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
