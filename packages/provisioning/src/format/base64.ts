/**
 * Files' bytes in the import format: base64 (RFC 4648 §4, `+/` with `=` padding), as a JSON string.
 * Checked without a regular expression that repeats a group: V8 runs out of stack on those past a
 * few megabytes (zod's `z.base64()` among them), where one character class is linear.
 */
const ALPHABET_THEN_PADDING = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `text` is padded base64: whole groups of four, padding only at the end. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && ALPHABET_THEN_PADDING.test(text);
}

/** How many bytes base64 text (see {@link isBase64}) decodes to, without decoding it. */
export function decodedLength(text: string): number {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** Characters per `String.fromCharCode` call: well within any engine's limit on arguments. */
const SLICE = 0x8000;

export function base64FromBytes(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += SLICE)
    parts.push(String.fromCharCode(...bytes.subarray(start, start + SLICE)));
  return btoa(parts.join(""));
}

/** The bytes of base64 text (see {@link isBase64}). */
export function bytesFromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
