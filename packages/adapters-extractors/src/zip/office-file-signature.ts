import { UnreadableFile } from "../unreadable-file.js";

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_SIGNATURE = [0x50, 0x4b, 0x05, 0x06];
// OLE compound file: what Office writes for a password-protected DOCX/XLSX, and for a .doc/.xls.
const COMPOUND_FILE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
// The stream name an encrypted OOXML package keeps its key data in (MS-OFFCRYPTO), in UTF-16LE.
const ENCRYPTION_INFO = Buffer.from("EncryptionInfo", "utf16le");

/**
 * Refuses, with the right reason, bytes that are not an Office Open XML zip: a password-protected
 * document (Office wraps it in a compound file), an old binary `.doc`/`.xls` renamed, anything else.
 * `label` names the file ("The DOCX document"), `legacyName` its binary predecessor (".doc").
 */
export function requireOfficeZip(bytes: Uint8Array, label: string, legacyName: string): void {
  if (startsWith(bytes, ZIP_SIGNATURE) || startsWith(bytes, EMPTY_ZIP_SIGNATURE)) return;
  if (startsWith(bytes, COMPOUND_FILE_SIGNATURE)) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    throw new UnreadableFile(
      buffer.includes(ENCRYPTION_INFO)
        ? `${label} is encrypted (password-protected).`
        : `${label} is an old binary ${legacyName} file, not the zip-based format its name says.`,
    );
  }
  throw new UnreadableFile(`${label} cannot be read: it is not a zip archive, as the format requires.`);
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}
