/*
 * Unicode's word rules (UAX #29, as ICU's Intl.Segmenter applies them) for ASCII text, at a
 * fraction of the segmenter's cost: letters, digits and `_` always join; a letter and a letter
 * join across one `:`, `.` or `'` (WB6/7), a digit and a digit across one `,`, `;`, `.` or `'`
 * (WB11/12); everything else breaks. A segment is word-like when it holds a letter or a digit, or
 * is two or more `_` (as ICU marks them). The analyzer's tests check this against Intl.Segmenter.
 */

enum Kind {
  Other = 0,
  Letter = 1,
  Digit = 2,
  Underscore = 3,
}

const KINDS = new Uint8Array(128);
for (let code = 97; code <= 122; code++) KINDS[code] = Kind.Letter;
for (let code = 65; code <= 90; code++) KINDS[code] = Kind.Letter;
for (let code = 48; code <= 57; code++) KINDS[code] = Kind.Digit;
KINDS[95] = Kind.Underscore;

const BETWEEN_LETTERS = new Set([58, 46, 39]); // : . '
const BETWEEN_DIGITS = new Set([44, 59, 46, 39]); // , ; . '

/** Calls `found` with each word-like segment of `text[from, to)`, which is ASCII, in order, in lower case. */
export function eachAsciiWord(
  text: string,
  from: number,
  to: number,
  found: (segment: string) => void,
): void {
  let index = from;
  while (index < to) {
    if (KINDS[text.charCodeAt(index)] === Kind.Other) {
      index++;
      continue;
    }
    const start = index;
    let alphanumeric = false;
    for (;;) {
      let kind = KINDS[text.charCodeAt(index)]!;
      while (index < to && kind !== Kind.Other) {
        if (kind !== Kind.Underscore) alphanumeric = true;
        index++;
        kind = index < to ? KINDS[text.charCodeAt(index)]! : Kind.Other;
      }
      if (index + 1 >= to) break;
      const before = KINDS[text.charCodeAt(index - 1)];
      const after = KINDS[text.charCodeAt(index + 1)];
      const middle = text.charCodeAt(index);
      const joins =
        (before === Kind.Letter && after === Kind.Letter && BETWEEN_LETTERS.has(middle)) ||
        (before === Kind.Digit && after === Kind.Digit && BETWEEN_DIGITS.has(middle));
      if (!joins) break;
      index++;
    }
    if (alphanumeric || index - start >= 2) found(text.slice(start, index).toLowerCase());
  }
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
const isAsciiWordStart = (code: number) => code < 128 && !isSpace(code);

/**
 * Where the text may be cut with its words unchanged: at its ends, and between an ASCII space (or
 * tab, line feed, carriage return) and an ASCII character that is not one. There every rule breaks,
 * and neither NFKC nor lower-casing reaches across a space.
 */
function isCut(text: string, index: number): boolean {
  return (
    index === 0 ||
    index === text.length ||
    (isSpace(text.charCodeAt(index - 1)) && isAsciiWordStart(text.charCodeAt(index)))
  );
}

const NON_ASCII = /[^\0-\x7f]/g;

/**
 * Cuts `text` into pieces (`isCut`), in order: the pieces that are ASCII as they are, each piece
 * that holds another character with the pieces around it up to the nearest cuts.
 */
export function eachPiece(text: string, found: (from: number, to: number, ascii: boolean) => void): void {
  let from = 0;
  while (from < text.length) {
    NON_ASCII.lastIndex = from;
    const foreign = NON_ASCII.exec(text)?.index;
    if (foreign === undefined) {
      found(from, text.length, true);
      return;
    }
    let start = foreign;
    while (start > from && !isCut(text, start)) start--;
    let end = foreign + 1;
    while (!isCut(text, end)) end++;
    if (start > from) found(from, start, true);
    found(start, end, false);
    from = end;
  }
}
