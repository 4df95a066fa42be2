/** A part of a `multipart/form-data` body: a text field, or a file when it has a file name. */
export interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  content: string | Uint8Array;
}

/** A `multipart/form-data` body written byte for byte, as a client would send it. */
export function multipartBody(parts: readonly FormPart[], boundary = `----form${Date.now()}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.type === undefined ? "" : `\r\nContent-Type: ${part.type}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`,
      ),
    );
    chunks.push(typeof part.content === "string" ? Buffer.from(part.content) : Buffer.from(part.content));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The form of a document by file: its `data` (as JSON, unless a string) and its files. */
export function uploadForm(
  files: readonly { name: string; content: string | Uint8Array; type?: string }[],
  data?: unknown,
) {
  const parts: FormPart[] = [];
  if (data !== undefined)
    parts.push({ name: "data", content: typeof data === "string" ? data : JSON.stringify(data) });
  for (const file of files)
    parts.push({ name: "file", filename: file.name, type: file.type, content: file.content });
  return multipartBody(parts);
}
