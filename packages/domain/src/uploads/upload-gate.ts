import { InvalidParamError } from "../errors.js";
import {
  BlockedFileExtensionError,
  FilenameNotExistsError,
  FileTooLargeError,
  NoFileUploadedError,
  TooManyFilesError,
  UnsupportedFileTypeError,
} from "./upload-errors.js";

/** A file as a multipart request carries it: the part's file name, MIME type and bytes. */
export interface SentFile {
  /** The part's field name; the upload is the part named `file` (undefined: taken as `file`). */
  field?: string;
  name: string;
  /** The part's `Content-Type`; undefined when it gave none. */
  mimeType: string | undefined;
  bytes: Uint8Array;
  /** The file was over the size limit: only its first bytes were kept. */
  truncated?: boolean;
}

/** What a dataset accepts: the extensions read, those the operator blocked, the size limit. */
export interface UploadRules {
  accepted: readonly string[];
  blocked: readonly string[];
  maxBytes: number;
}

/** A file past the gate: the name and extension it is stored under. */
export interface AdmittedFile extends SentFile {
  storedName: string;
  extension: string;
}

const NAME_CHARACTERS_INVALID = "Filename contains invalid characters";

/**
 * A file name's extension as Dify takes it (`os.path.splitext`): its last suffix, lowercased; none
 * for a name without a dot or one whose only dot leads it (`.env`).
 */
export function extensionOf(name: string): string {
  const base = name.replace(/^\.+/, "");
  const dot = base.lastIndexOf(".");
  return dot < 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** A name over 200 code points becomes its part before the first dot, cut to 200, plus its extension. */
export function storedUploadName(name: string, extension: string): string {
  const points = [...name];
  if (points.length <= 200) return name;
  const stem = [...(name.split(".")[0] ?? "")].slice(0, 200).join("");
  return `${stem}.${extension}`;
}

/** Whether the request's files hold the upload: a part named `file`. */
export const sendsUpload = (files: readonly SentFile[]) =>
  files.some((file) => (file.field ?? "file") === "file");

/**
 * The request's one file, checked in Dify's order (its controller, then `FileService.upload_file`):
 * a part named `file`, no other file, a name, no path in it, an extension not blocked and
 * accepted, within the size limit.
 */
export function admitUpload(files: readonly SentFile[], rules: UploadRules): AdmittedFile {
  if (!sendsUpload(files)) throw new NoFileUploadedError();
  if (files.length > 1) throw new TooManyFilesError();
  const file = files[0]!;
  if (file.name === "") throw new FilenameNotExistsError();
  if (/[/\\]/.test(file.name)) throw new InvalidParamError("file", NAME_CHARACTERS_INVALID);
  const extension = extensionOf(file.name);
  if (rules.blocked.includes(extension)) throw new BlockedFileExtensionError();
  if (!rules.accepted.includes(extension)) throw new UnsupportedFileTypeError();
  if (file.truncated || file.bytes.byteLength > rules.maxBytes) throw new FileTooLargeError(rules.maxBytes);
  return { ...file, storedName: storedUploadName(file.name, extension), extension };
}
