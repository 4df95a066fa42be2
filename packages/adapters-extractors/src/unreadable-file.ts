/**
 * Why a file cannot be read, thrown inside a reader and turned into `{ ok: false, reason }` by
 * `FormatTextExtractor`. Readers throw it for the file's content only; anything else thrown by a
 * library on a broken file becomes the format's generic reason there.
 */
export class UnreadableFile extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "UnreadableFile";
  }
}
