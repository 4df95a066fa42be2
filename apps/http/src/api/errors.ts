import { INVALID_TOKEN } from "@service-api/application";
import { APP_OUT_OF_SERVICE, ProviderNotInitializeError } from "@service-api/domain";
import type { ErrorCase, KeyKind } from "./operation.js";

/** The answers of the two rate limits: a key's requests, and failed authentications from an address. */
export const LIMITED = {
  per_key: {
    status: 429,
    code: "too_many_requests",
    message: "This API key has made too many requests. Try again later.",
  },
  auth_failures: {
    status: 429,
    code: "too_many_requests",
    message: "Too many requests with a missing or invalid API key from this address. Try again later.",
  },
} as const satisfies Record<string, ErrorCase>;

/** The 401s, with Dify's messages: no header (or none with a space), another scheme, an unknown key. */
export const UNAUTHORIZED = {
  no_header: {
    status: 401,
    code: "unauthorized",
    message: "Authorization header must be provided and start with 'Bearer'",
  },
  scheme: { status: 401, code: "unauthorized", message: "Authorization scheme must be 'Bearer'" },
  invalid_key: { status: 401, code: "unauthorized", message: INVALID_TOKEN },
} as const satisfies Record<string, ErrorCase>;

/**
 * Errors every operation can answer: a URL that does not decode, a key that is missing or wrong, a
 * limit, a failure of ours, the store away.
 */
export const ALWAYS: ErrorCase[] = [
  { status: 400, code: "bad_request", message: "The URL is not valid." },
  ...Object.values(UNAUTHORIZED),
  ...Object.values(LIMITED),
  { status: 500, code: "unknown", message: "Internal Server Error" },
  {
    status: 503,
    code: "service_unavailable",
    message:
      "The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.",
  },
];

/** Errors of an operation with a JSON body, before its fields are read. */
export const BODY: ErrorCase[] = [
  { status: 400, code: "bad_request", message: "Invalid JSON payload received or JSON payload is empty." },
  {
    status: 413,
    code: "request_entity_too_large",
    message: "The data value transmitted exceeds the capacity limit (1 MB).",
  },
  {
    status: 415,
    code: "unsupported_media_type",
    message: "Did not attempt to load JSON data because the request Content-Type was not 'application/json'.",
  },
];

/** Errors of an operation on the dataset in its path. */
export const DATASET: ErrorCase[] = [
  { status: 403, code: "forbidden", message: "Dataset api access is not enabled." },
  { status: 404, code: "not_found", message: "Dataset not found." },
];

/** Errors of an app operation whose app or workspace is out of service. */
export const APP: ErrorCase[] = Object.values(APP_OUT_OF_SERVICE).map((message) => ({
  status: 403,
  code: "forbidden",
  message,
}));

/** What a key of each kind answers once its workspace is archived; the document adds it to every operation. */
export const WORKSPACE_ARCHIVED: Record<KeyKind, ErrorCase[]> = {
  knowledge: [{ status: 403, code: "forbidden", message: "The workspace is archived." }],
  app: [],
};

export const invalid = (message: string): ErrorCase => ({ status: 400, code: "invalid_param", message });

/** Errors of a list read by `page` and `limit`. */
export const PAGED: ErrorCase[] = [
  invalid("page: must be an integer of at least 1."),
  invalid(`page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`),
  invalid("limit: must be an integer from 1 to 100."),
];
export const notFound = (message: string): ErrorCase => ({ status: 404, code: "not_found", message });

/** What needs a model: none runs here (Dify's answer on a workspace without one). */
export const NO_MODEL: ErrorCase = {
  status: 400,
  code: "provider_not_initialize",
  message: new ProviderNotInitializeError().message,
};
