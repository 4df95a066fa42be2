import { DomainError } from "../errors.js";

// The refusals of an upload, with Dify's codes and texts (controllers/common/errors.py and the
// service API's own): what is wrong with the request's file, before anything is stored.

export class NoFileUploadedError extends DomainError {
  readonly code = "no_file_uploaded";
  constructor() {
    super("Please upload your file.");
  }
}

export class TooManyFilesError extends DomainError {
  readonly code = "too_many_files";
  constructor() {
    super("Only one file is allowed.");
  }
}

export class FilenameNotExistsError extends DomainError {
  readonly code = "filename_not_exists_error";
  constructor() {
    super("The specified filename does not exist.");
  }
}

export class FileTooLargeError extends DomainError {
  readonly code = "file_too_large";
  constructor(limitBytes: number) {
    super(`File size exceeded. The limit is ${limitBytes / 1024 / 1024} MB.`);
  }
}

export class UnsupportedFileTypeError extends DomainError {
  readonly code = "unsupported_file_type";
  constructor() {
    super("File type not allowed.");
  }
}

/** An extension the operator blocked (`UPLOAD_FILE_EXTENSION_BLACKLIST`). */
export class BlockedFileExtensionError extends DomainError {
  readonly code = "file_extension_blocked";
  constructor() {
    super("The file extension is blocked for security reasons.");
  }
}
