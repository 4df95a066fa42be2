import { DomainError, type ErrorCode } from "@service-api/domain";

/** Codes only the HTTP edge produces. */
export type HttpErrorCode =
  | "unsupported_media_type"
  | "request_entity_too_large"
  | "method_not_allowed"
  | "too_many_requests"
  | "request_header_fields_too_large"
  | "request_timeout"
  | "expectation_failed"
  | "unknown";

/** A failure found at the edge, before any use case runs. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | HttpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The one table from domain error code to HTTP status. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_metadata: 400,
  invalid_param: 400,
  not_chat_app: 400,
  bad_request: 400,
  invalid_action: 400,
  archived_document_immutable: 403,
  dataset_name_duplicate: 409,
  provider_not_initialize: 400,
  no_file_uploaded: 400,
  too_many_files: 400,
  filename_not_exists_error: 400,
  file_too_large: 413,
  unsupported_file_type: 415,
  file_extension_blocked: 400,
  service_unavailable: 503,
};

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

export const INTERNAL_ERROR: ErrorBody = { status: 500, code: "unknown", message: "Internal Server Error" };
export const INVALID_JSON = "Invalid JSON payload received or JSON payload is empty.";
export const REQUEST_ABORTED = "The request was aborted.";
export const TOO_LARGE = "The data value transmitted exceeds the capacity limit (1 MB).";

/** Errors that body-parser raises, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, ErrorBody> = {
  "entity.too.large": {
    status: 413,
    code: "request_entity_too_large",
    message: TOO_LARGE,
  },
  "entity.parse.failed": { status: 400, code: "bad_request", message: INVALID_JSON },
  "entity.verify.failed": { status: 400, code: "bad_request", message: INVALID_JSON },
  "request.aborted": { status: 400, code: "bad_request", message: REQUEST_ABORTED },
  "request.size.invalid": {
    status: 400,
    code: "bad_request",
    message: "The request body does not match its length.",
  },
  "encoding.unsupported": {
    status: 415,
    code: "unsupported_media_type",
    message: "Unsupported content encoding.",
  },
  "charset.unsupported": { status: 415, code: "unsupported_media_type", message: "Unsupported charset." },
};

/**
 * A compressed body that does not decompress (corrupt or cut short): body-parser passes on zlib's
 * own error (a numeric `errno`), marked as a client's 400 (http-errors' `expose`), with no `type`.
 */
function isUndecodableBody(error: unknown): boolean {
  const { status, expose, errno } = (error ?? {}) as { status?: unknown; expose?: unknown; errno?: unknown };
  return status === 400 && expose === true && typeof errno === "number";
}

/** The `{status, code, message}` body for any error; `undefined` for one that must stay internal. */
export function errorBodyOf(error: unknown): ErrorBody | undefined {
  if (error instanceof DomainError)
    return { status: STATUS_BY_CODE[error.code], code: error.code, message: error.message };
  if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type === "string" && type in BODY_PARSER_ERRORS) return BODY_PARSER_ERRORS[type];
  if (isUndecodableBody(error)) return { status: 400, code: "bad_request", message: INVALID_JSON };
  if (error instanceof URIError)
    return { status: 400, code: "bad_request", message: "The URL is not valid." };
  return undefined;
}
