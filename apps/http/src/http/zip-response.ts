import { Readable } from "node:stream";
import type { DocumentFile } from "@service-api/application";
import { archiveNames } from "@service-api/domain";
import type { Response } from "express";
import yazl from "yazl";

/** RFC 5987's `attr-char`s: what `encodeURIComponent` leaves but `'()*`. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** `attachment; filename="…"` with the UTF-8 name beside it (RFC 6266), for any file name. */
export function attachment(name: string, disposition: "attachment" | "inline" = "attachment"): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}

/** A file's bytes as a stream that reads them only when first read: when the archive reaches it. */
function lazyBytes(file: DocumentFile): Readable {
  let started = false;
  return new Readable({
    read() {
      if (started) return;
      started = true;
      file.bytes().then(
        (bytes) => {
          if (!bytes) return this.destroy(new Error(`The bytes of file ${file.file.id} are gone.`));
          this.push(bytes);
          this.push(null);
        },
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });
}

/**
 * The files as one ZIP archive, streamed by yazl: one entry per file, names made unique, each file's
 * bytes read only as the archive reaches it (one file in memory at a time). A file that cannot be
 * read once the answer has begun cuts it off: the client sees a broken download, not a short one.
 */
export function sendZip(res: Response, files: readonly DocumentFile[], name: string): void {
  const zip = new yazl.ZipFile();
  const names = archiveNames(files.map(({ file }) => file.name));
  // Every entry is added (yazl checks its name) before the answer begins.
  for (const [index, file] of files.entries()) {
    const stream = lazyBytes(file);
    stream.on("error", () => res.destroy());
    zip.addReadStream(stream, names[index]!, { mtime: new Date(file.file.createdAt * 1000) });
  }
  zip.end();
  res.writeHead(200, { "Content-Type": "application/zip", "Content-Disposition": attachment(name) });
  zip.outputStream.on("error", () => res.destroy());
  // A client that goes stops the archive: its files are not read.
  res.on("close", () => zip.outputStream.unpipe(res));
  zip.outputStream.pipe(res);
}
