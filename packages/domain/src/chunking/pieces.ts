// The pieces a splitter cuts a text into, yielded one by one: a long text cut into a million
// words would otherwise sit in arrays twice (the split, then the run of pieces to merge).

/** `text.split(separator)`, lazily. The separator is not empty. */
export function* partsBetween(text: string, separator: string): Generator<string> {
  let start = 0;
  for (let found = text.indexOf(separator); found !== -1; found = text.indexOf(separator, start)) {
    yield text.slice(start, found);
    start = found + separator.length;
  }
  yield text.slice(start);
}

/** Each part but the last with the separator kept at its end (`keep_separator=True`). */
export function* partsEndingWith(text: string, separator: string): Generator<string> {
  let start = 0;
  for (let found = text.indexOf(separator); found !== -1; found = text.indexOf(separator, start)) {
    const end = found + separator.length;
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

const SPACE = 0x20;

/** `re.split(r" +", text)`: the text between runs of spaces, the spaces dropped. */
export function* partsBetweenSpaceRuns(text: string): Generator<string> {
  let start = 0;
  for (let found = text.indexOf(" "); found !== -1; found = text.indexOf(" ", start)) {
    yield text.slice(start, found);
    start = found + 1;
    while (text.charCodeAt(start) === SPACE) start++;
  }
  yield text.slice(start);
}
