/** Every failure the service reports, as a closed union. apps/http maps each code to one HTTP status. */
export type ErrorCode =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "invalid_metadata"
  | "invalid_param"
  | "not_chat_app"
  | "bad_request"
  | "invalid_action"
  | "archived_document_immutable"
  | "dataset_name_duplicate"
  | "provider_not_initialize"
  | "no_file_uploaded"
  | "too_many_files"
  | "filename_not_exists_error"
  | "file_too_large"
  | "unsupported_file_type"
  | "file_extension_blocked"
  | "service_unavailable";

/** A failure the caller can act on. Knows nothing of HTTP. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

export class UnauthorizedError extends DomainError {
  readonly code = "unauthorized";
}

export class ForbiddenError extends DomainError {
  readonly code = "forbidden";
}

export class NotFoundError extends DomainError {
  readonly code = "not_found";
}

export class InvalidMetadataError extends DomainError {
  readonly code = "invalid_metadata";
  constructor(readonly value: string) {
    super(`Invalid metadata value: ${value}`);
  }
}

export class InvalidParamError extends DomainError {
  readonly code = "invalid_param";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class NotChatAppError extends DomainError {
  readonly code = "not_chat_app";
  constructor() {
    super("Please check if your app mode matches the right API route.");
  }
}

export class BadRequestError extends DomainError {
  readonly code = "bad_request";
}

/** An action the operation does not know, or one the document's state does not allow. */
export class InvalidActionError extends DomainError {
  readonly code = "invalid_action";
}

export class ArchivedDocumentImmutableError extends DomainError {
  readonly code = "archived_document_immutable";
  constructor() {
    super("The archived document is not editable.");
  }
}

export class DatasetNameDuplicateError extends DomainError {
  readonly code = "dataset_name_duplicate";
  constructor() {
    super("The dataset name already exists. Please modify your dataset name.");
  }
}

/** What needs a language or embedding model: none can run here (Dify, on a workspace without one). */
export class ProviderNotInitializeError extends DomainError {
  readonly code = "provider_not_initialize";
  constructor() {
    super(
      "No Embedding Model available. Please configure a valid provider in the Settings -> Model Provider.",
    );
  }
}

/** Werkzeug's text for a 503, as Dify answers one. */
const UNAVAILABLE =
  "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.";

/**
 * The store cannot be reached now: down, restarting, refusing or dropping connections, out of
 * connections, or locked past its wait. Nothing was written; the same request may succeed later.
 */
export class StoreUnavailableError extends DomainError {
  readonly code = "service_unavailable";
  constructor(options?: { cause?: unknown }) {
    super(UNAVAILABLE, options);
  }
}
