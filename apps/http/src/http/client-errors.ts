import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody } from "./http-error.js";

/** Node's own refusals, before a request reaches Express, by the error's code; anything else is a 400. */
const REFUSALS: Record<string, ErrorBody> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: "request_header_fields_too_large",
    message: "The request's headers are too large.",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: "request_entity_too_large",
    message: "The request's chunk extensions are too large.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: "request_timeout",
    message: "The request was not received in time.",
  },
};
const MALFORMED: ErrorBody = { status: 400, code: "bad_request", message: "The request is not valid HTTP." };

/**
 * The server's `clientError` listener: what Node would answer (431, 400, 408…) with the API's
 * `{status, code, message}` body instead of none, then the connection closes. A connection that
 * already has part of a response, or cannot be written to, is only closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, code, message } = REFUSALS[error.code ?? ""] ?? MALFORMED;
  const body = JSON.stringify({ status, code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
