// The markdown link and image patterns of Dify's URL removal, found by scanning. As regexes they
// retry every `[` (or `![`) up to the next `]` or line end: quadratic on a long text full of
// brackets. Each part of the patterns ends at the first character it cannot take, so the first
// `]`, `)` or line break after a point decides a match, and those are looked up once.

/** `indexOf` for ascending starts: a search is redone only past the last one's answer. */
function forwardFinder(text: string, target: string): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from >= searchedFrom && (found === -1 || from <= found)) return found;
    searchedFrom = from;
    found = text.indexOf(target, from);
    return found;
  };
}

/** After a `]` at `close`: the end of `\((https?://[^)]+)\)`, or -1. */
function targetEnd(text: string, close: number, nextParenthesis: (from: number) => number): number {
  if (text[close + 1] !== "(") return -1;
  const scheme = text.startsWith("https://", close + 2) ? 8 : text.startsWith("http://", close + 2) ? 7 : 0;
  if (scheme === 0) return -1;
  const urlStart = close + 2 + scheme;
  const parenthesis = nextParenthesis(urlStart);
  return parenthesis > urlStart ? parenthesis + 1 : -1;
}

/** `re.sub(r"\[([^\]]*)\]\((https?://[^)]+)\)", …, text)`: `[label](url)` through `replace`. */
export function replaceMarkdownLinks(text: string, replace: (label: string, url: string) => string): string {
  const nextClose = forwardFinder(text, "]");
  const nextParenthesis = forwardFinder(text, ")");
  let replaced = "";
  let copiedTo = 0;
  let open = text.indexOf("[");
  while (open !== -1) {
    const close = nextClose(open + 1);
    if (close === -1) break;
    const end = targetEnd(text, close, nextParenthesis);
    if (end === -1) {
      open = text.indexOf("[", open + 1);
      continue;
    }
    replaced +=
      text.slice(copiedTo, open) + replace(text.slice(open + 1, close), text.slice(close + 2, end - 1));
    copiedTo = end;
    open = text.indexOf("[", end);
  }
  return copiedTo === 0 ? text : replaced + text.slice(copiedTo);
}

/**
 * `re.sub(r"!\[.*?\]\((https?://[^)]+)\)", …, text)`: the alt runs lazily to the first `]` that a
 * URL target follows, never past a line break; the image's URL goes through `replace`.
 */
export function replaceMarkdownImages(text: string, replace: (url: string) => string): string {
  const nextParenthesis = forwardFinder(text, ")");
  const nextLineBreak = forwardFinder(text, "\n");
  let searchedFrom = Number.POSITIVE_INFINITY;
  let targetClose = -1;
  // The first `]` at or after `from` that a URL target follows.
  const nextTargetClose = (from: number): number => {
    if (from >= searchedFrom && (targetClose === -1 || from <= targetClose)) return targetClose;
    searchedFrom = from;
    targetClose = text.indexOf("]", from);
    while (targetClose !== -1 && targetEnd(text, targetClose, nextParenthesis) === -1) {
      targetClose = text.indexOf("]", targetClose + 1);
    }
    return targetClose;
  };
  let replaced = "";
  let copiedTo = 0;
  let bang = text.indexOf("![");
  while (bang !== -1) {
    const close = nextTargetClose(bang + 2);
    if (close === -1) break;
    const lineBreak = nextLineBreak(bang + 2);
    if (lineBreak !== -1 && lineBreak < close) {
      bang = text.indexOf("![", bang + 1);
      continue;
    }
    const end = targetEnd(text, close, nextParenthesis);
    replaced += text.slice(copiedTo, bang) + replace(text.slice(close + 2, end - 1));
    copiedTo = end;
    bang = text.indexOf("![", end);
  }
  return copiedTo === 0 ? text : replaced + text.slice(copiedTo);
}
