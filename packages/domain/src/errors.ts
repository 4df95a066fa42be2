/** Every failure the service reports, as a closed union. apps/http maps each code to one HTTP status. */
export type ErrorCode =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "invalid_metadata"
  | "invalid_param"
  | "not_chat_app"
  | "bad_request";

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
