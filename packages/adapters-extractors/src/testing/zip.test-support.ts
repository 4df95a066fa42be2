import zlib from "node:zlib";

/** An entry to write: its deflated data, and the sizes its headers declare (honest by default). */
export interface ZipEntryToWrite {
  name: string;
  deflated: Uint8Array;
  declaredSize: number;
  crc32: number;
}

/** An honest entry: `content` deflated, its real size and CRC declared. */
export function honestEntry(name: string, content: string | Uint8Array): ZipEntryToWrite {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return { name, deflated: zlib.deflateRawSync(bytes), declaredSize: bytes.length, crc32: zlib.crc32(bytes) };
}

/**
 * Deflated zeros that inflate to `mebibytes` MiB from about 1 KB each: one fully flushed deflate of
 * 1 MiB, repeated (each copy refers to nothing before it), then a final empty block.
 */
export function deflatedZeros(mebibytes: number): Uint8Array {
  const oneMebibyte = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), {
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  return Buffer.concat([...Array<Buffer>(mebibytes).fill(oneMebibyte), Buffer.from([0x03, 0x00])]);
}

/** A zip archive (deflate, no zip64) of `entries`, with the sizes they declare. */
export function zipBytes(entries: readonly ZipEntryToWrite[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const common = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt32LE(0, at + 6); // time and date
      header.writeUInt32LE(entry.crc32 >>> 0, at + 10);
      header.writeUInt32LE(entry.deflated.length, at + 14);
      header.writeUInt32LE(entry.declaredSize, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4);
    locals.push(local, name, Buffer.from(entry.deflated));
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    common(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + entry.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The eight bytes every PNG starts with, and a header chunk: a picture, whatever its name says. */
export const PNG_BYTES = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0d" +
    "ef46b80000000049454e44ae426082",
  "hex",
);

/**
 * What Office writes for a password-protected document: a compound file (its signature) holding an
 * `EncryptionInfo` stream. Only the parts our signature check reads are real.
 */
export function compoundFileBytes(withEncryptionInfo: boolean): Uint8Array {
  const signature = Buffer.from("d0cf11e0a1b11ae1", "hex");
  const directoryName = Buffer.from(withEncryptionInfo ? "EncryptionInfo" : "WordDocument", "utf16le");
  return Buffer.concat([signature, Buffer.alloc(504), directoryName, Buffer.alloc(512)]);
}
