// Dify turns a custom separator into the string it splits on in two steps: `_get_splitter` replaces
// each backslash-n with a newline, then `FixedRecursiveCharacterTextSplitter` runs
// `codecs.decode(separator, "unicode_escape")`. That decode reads the text as UTF-8 bytes taken for
// Latin-1, so any non-ASCII separator (`。`, `，`) becomes mojibake that never matches (Dify #33644).
// Decision (knowledge-content §4): decode the same escapes, keep every other character as it is.

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\u0007",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

const OCTAL_DIGITS = /^[0-7]{1,3}/;
const HEX_DIGITS = /^[0-9A-Fa-f]+$/;
const HEX_WIDTHS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** One escape at `text[index]` (the backslash): what it stands for and how many units it spans. */
function readEscape(text: string, index: number): { value: string; width: number } {
  const letter = text[index + 1];
  // A lone backslash at the end is an error in Python; kept as written here.
  if (letter === undefined) return { value: "\\", width: 1 };
  // A backslash before a line break continues the line: both vanish (so `\\n` ends up empty).
  if (letter === "\n") return { value: "", width: 2 };
  const simple = SIMPLE_ESCAPES[letter];
  if (simple !== undefined) return { value: simple, width: 2 };
  const octal = OCTAL_DIGITS.exec(text.slice(index + 1, index + 4));
  if (octal) return { value: String.fromCodePoint(Number.parseInt(octal[0], 8)), width: 1 + octal[0].length };
  const hexWidth = HEX_WIDTHS[letter];
  if (hexWidth !== undefined) {
    const digits = text.slice(index + 2, index + 2 + hexWidth);
    const codePoint = Number.parseInt(digits, 16);
    // A short or invalid escape (and `\N{name}`, below) fails the decode in Python; kept as written.
    if (digits.length === hexWidth && HEX_DIGITS.test(digits) && codePoint <= 0x10ffff) {
      return { value: String.fromCodePoint(codePoint), width: 2 + hexWidth };
    }
  }
  // Python keeps an unknown escape such as `\q` as it is, backslash included.
  return { value: `\\${letter}`, width: 2 };
}

/**
 * The fixed separator a custom segmentation splits on: backslash-n becomes a newline, then Python's
 * `unicode_escape` escapes are decoded (`\t`, `\r`, `\\`, `\xhh`, `\uXXXX`, `\UXXXXXXXX`, octal, a
 * backslash before a newline dropped) and every other character kept as it is. Matches Dify for
 * ASCII separators; where Dify fails the document on a malformed escape, it is kept as written.
 */
export function decodeSeparator(separator: string): string {
  const text = separator.replaceAll("\\n", "\n");
  let decoded = "";
  let index = 0;
  while (index < text.length) {
    const next = text.indexOf("\\", index);
    if (next === -1) return decoded + text.slice(index);
    decoded += text.slice(index, next);
    const decodedEscape = readEscape(text, next);
    decoded += decodedEscape.value;
    index = next + decodedEscape.width;
  }
  return decoded;
}
