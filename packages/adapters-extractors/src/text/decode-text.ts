import chardet from "chardet";
import { UnreadableFile } from "../unreadable-file.js";

// Enough bytes for the detector to tell encodings apart; the whole file is then decoded.
const DETECTION_SAMPLE_BYTES = 1024 * 1024;

export interface DecodeOptions {
  /** Keep a UTF-8 BOM as U+FEFF at the start, as Python's `utf-8` codec does (txt, md). */
  keepUtf8Bom: boolean;
  /** An encoding the file declares (an HTML `<meta charset>`), tried after UTF-8 and before detection. */
  declaredEncoding?: string | undefined;
}

/**
 * The file's text, read as Dify's `helpers.detect_file_encodings` does: UTF-8 first; only when that
 * fails, the encodings a detector ranks (chardet, as Dify's charset-normalizer), the first that
 * decodes the whole file. Text that decodes to NUL characters is binary (a PNG named `.txt`).
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions): string {
  const utf8 = tryDecode(bytes, "utf-8", options.keepUtf8Bom);
  if (utf8 !== undefined) return utf8;
  const candidates = [
    ...(options.declaredEncoding ? [options.declaredEncoding] : []),
    ...chardet.analyse(bytes.subarray(0, DETECTION_SAMPLE_BYTES)).map((match) => match.name),
  ];
  for (const encoding of candidates) {
    const text = tryDecode(bytes, encoding, false);
    if (text !== undefined) return text;
  }
  throw new UnreadableFile(
    hasNulByte(bytes)
      ? "The file is not text: it holds binary data."
      : "The file's text encoding cannot be detected.",
  );
}

function tryDecode(bytes: Uint8Array, encoding: string, keepBom: boolean): string | undefined {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: keepBom });
  } catch {
    return undefined; // a label the platform does not know (UTF-32, ISO-2022-CN)
  }
  try {
    const text = decoder.decode(bytes);
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  }
}

function hasNulByte(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}
