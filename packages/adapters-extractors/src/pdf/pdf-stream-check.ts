import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

// PDF.js inflates a content stream, a font or a form whole into memory, as any reader must: a small
// PDF whose stream inflates to gigabytes (a decompression bomb) would take them all. Before PDF.js
// sees the file, its Flate streams are inflated here once, streaming and keeping nothing, and their
// sizes added up. Images are left out: text extraction does not decode them. Streams with filters
// other than Flate (LZW, run length, ASCII encodings) are not counted: a limit we know of.

const DICTIONARY_WINDOW = 8192; // how far before `stream` its dictionary is looked for
const STREAM = Buffer.from("stream");
const END_STREAM = Buffer.from("endstream");

/** The bytes the PDF's Flate streams (but images) inflate to, counted up to `limit` + 1 at most. */
export async function inflatedStreamBytes(bytes: Uint8Array, limit: number): Promise<number> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let position = 0;
  while (total <= limit) {
    const keyword = buffer.indexOf(STREAM, position);
    if (keyword === -1) break;
    position = keyword + STREAM.length;
    if (buffer.toString("latin1", Math.max(0, keyword - 3), keyword) === "end") continue;
    const dataStart = buffer[position] === 0x0d ? position + 2 : position + 1;
    const dataEnd = buffer.indexOf(END_STREAM, dataStart);
    if (dataEnd === -1) break;
    const dictionary = buffer.toString("latin1", Math.max(0, keyword - DICTIONARY_WINDOW), keyword);
    const layers = flateLayers(dictionary.slice(dictionary.lastIndexOf("obj") + 1));
    if (layers > 0) total += await inflatedSize(buffer.subarray(dataStart, dataEnd), layers, limit - total);
    position = dataEnd + END_STREAM.length;
  }
  return total;
}

/** How many Flate filters a stream dictionary chains, or 0 when it is an image or uses another filter. */
export function flateLayers(dictionary: string): number {
  if (/\/Subtype\s*\/Image\b/.test(dictionary)) return 0;
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dictionary)?.[1];
  if (filter === undefined) return 0;
  const names = filter.match(/\/[A-Za-z0-9]+/g) ?? [];
  return names.every((name) => name === "/FlateDecode" || name === "/Fl") ? names.length : 0;
}

class OverLimit extends Error {}

async function inflatedSize(data: Buffer, layers: number, limit: number): Promise<number> {
  let size = 0;
  const inflaters = Array.from({ length: layers }, () => zlib.createInflate());
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > limit ? new OverLimit() : null);
    },
  });
  try {
    await pipeline([Readable.from([data]), ...inflaters, counter]);
  } catch {
    // Over the limit, or a broken stream: what inflated until then is what PDF.js would hold too.
  }
  return size;
}
