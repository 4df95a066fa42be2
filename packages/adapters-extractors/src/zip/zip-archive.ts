import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { type ExtractionLimits, formatBytes } from "../limits.js";
import { UnreadableFile } from "../unreadable-file.js";

export type ZipLimits = Pick<
  ExtractionLimits,
  "maxUncompressedBytes" | "maxZipEntries" | "maxCompressionRatio" | "ratioCheckedFromBytes"
>;

/**
 * A DOCX or XLSX archive, checked before anything is inflated: its central directory's entry count,
 * declared inflated sizes and compression ratios are held to the limits. Reading an entry checks its
 * actual size against the declared one (yauzl's `validateEntrySizes`), so an archive that lies about
 * its sizes is stopped at the declared size, not when memory runs out.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
    private readonly label: string,
  ) {}

  /** Opens `bytes` as a zip archive; `label` names the file in reasons ("The DOCX document"). */
  static async open(bytes: Uint8Array, limits: ZipLimits, label: string): Promise<ZipArchive> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const zip = await yauzl
      .fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false })
      .catch(() => {
        throw new UnreadableFile(`${label} cannot be read: its zip archive is broken.`);
      });
    try {
      if (zip.entryCount > limits.maxZipEntries) {
        throw new UnreadableFile(
          `${label} is refused: its archive has too many entries (over ${limits.maxZipEntries.toLocaleString("en-US")}).`,
        );
      }
      const entries = new Map<string, yauzl.Entry>();
      let declaredTotal = 0;
      for await (const entry of zip.eachEntry()) {
        declaredTotal += entry.uncompressedSize;
        if (declaredTotal > limits.maxUncompressedBytes) {
          throw new UnreadableFile(
            `${label} is refused: it inflates to over ${formatBytes(limits.maxUncompressedBytes)} (a decompression bomb).`,
          );
        }
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (entry.uncompressedSize >= limits.ratioCheckedFromBytes && ratio > limits.maxCompressionRatio) {
          throw new UnreadableFile(
            `${label} is refused: a part is compressed over ${limits.maxCompressionRatio} to 1 (a decompression bomb).`,
          );
        }
        // Office never writes two parts of one name; a reader could take either, so none is taken.
        if (entries.has(entry.fileName)) {
          throw new UnreadableFile(
            `${label} cannot be read: its archive holds two parts named ${entry.fileName}.`,
          );
        }
        entries.set(entry.fileName, entry);
      }
      return new ZipArchive(zip, entries, label);
    } catch (error) {
      zip.close();
      if (error instanceof UnreadableFile) throw error;
      throw new UnreadableFile(`${label} cannot be read: its zip archive is broken.`);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The inflated bytes of an entry, or `undefined` when the archive has none of that name. */
  async read(name: string): Promise<Uint8Array | undefined> {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    const chunks: Buffer[] = [];
    await this.inflate(entry, (chunk) => chunks.push(chunk));
    return Buffer.concat(chunks);
  }

  /**
   * Inflates every entry, keeping nothing: proves the archive holds what it declares. `observe`
   * sees each entry's inflated chunks as they pass.
   */
  async verifyAll(observe: (name: string, chunk: Buffer) => void = () => {}): Promise<void> {
    for (const entry of this.entries.values())
      await this.inflate(entry, (chunk) => observe(entry.fileName, chunk));
  }

  close(): void {
    this.zip.close();
  }

  private async inflate(entry: yauzl.Entry, onChunk: (chunk: Buffer) => void): Promise<void> {
    let stream: Readable;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
      for await (const chunk of stream) onChunk(chunk as Buffer);
    } catch (error) {
      const lied = error instanceof Error && /too many bytes|not enough bytes/.test(error.message);
      throw new UnreadableFile(
        lied
          ? `${this.label} is refused: its archive declares false sizes (a decompression bomb).`
          : `${this.label} cannot be read: its zip archive is broken.`,
      );
    }
  }
}
