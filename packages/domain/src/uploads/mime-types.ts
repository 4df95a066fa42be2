/** The MIME type of each extension a dataset reads. */
const BY_EXTENSION: Record<string, string> = {
  txt: "text/plain",
  properties: "text/plain",
  vtt: "text/vtt",
  md: "text/markdown",
  markdown: "text/markdown",
  mdx: "text/markdown",
  html: "text/html",
  htm: "text/html",
  csv: "text/csv",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
};

/** A MIME type as a header may carry it: a type and a subtype of token characters, no parameter. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** Types that say nothing of a file: a client's default, or a multipart part's without one. */
const GENERIC = new Set(["", "application/octet-stream", "text/plain"]);

/**
 * The MIME type an upload is stored and served with: the one it was sent with, unless that says
 * nothing of it or is no MIME type a header can carry (then its extension's).
 */
export function uploadMimeType(sent: string | undefined, extension: string): string {
  const given = sent?.trim().toLowerCase() ?? "";
  const type = MIME_TYPE.test(given) ? given : "";
  if (!GENERIC.has(type)) return type;
  return BY_EXTENSION[extension] ?? (type || "application/octet-stream");
}
