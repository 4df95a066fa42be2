// A worksheet part is `<sheetData><row><c r="A1">…</c>…`: counting `<c` tags as the part streams by
// tells how many cells exceljs would hold, before it holds them. A tag may be cut between two chunks:
// the last few characters of a chunk are carried to the next.
const CELL_TAG = /<(?:[A-Za-z_][\w.-]*:)?c[\s/>]/g;
const CARRIED = 32;
const WORKSHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;

/** Counts the cells of a workbook's worksheet parts from their inflated chunks, in order. */
export class CellCounter {
  count = 0;
  private readonly carried = new Map<string, string>();

  observe(part: string, chunk: Buffer): void {
    if (!WORKSHEET_PART.test(part)) return;
    const text = (this.carried.get(part) ?? "") + chunk.toString("latin1");
    const counted = text.length - CARRIED;
    for (const match of text.matchAll(CELL_TAG)) {
      // A tag starting in the carried tail is counted with the next chunk, where it is whole.
      if (match.index < counted) this.count += 1;
    }
    this.carried.set(part, text.slice(Math.max(0, counted)));
  }

  /** Counts what the last chunks carried; call once every part has passed. */
  finish(): number {
    for (const tail of this.carried.values()) this.count += [...tail.matchAll(CELL_TAG)].length;
    this.carried.clear();
    return this.count;
  }
}
