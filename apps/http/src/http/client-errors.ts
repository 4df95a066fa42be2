import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { closingAs } from "../observability/response-status.js";
import type { ErrorBody } from "./http-error.js";
import { BODY_LIMIT_BYTES } from "./json-body.js";
import { isLingering, lingerThenClose } from "./lingering-close.js";
import { formLimitBytes } from "./multipart-form.js";
import { refuseUnderWay } from "./refused-under-way.js";

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
 * `{status, code, message}` body instead of none, then the connection closes, lingering: the
 * client may still be sending. A connection that already has part of a response, or cannot be
 * written to, is only closed; one in its lingering close hears nothing more (Node reports the
 * bytes it drops as bad requests, and its request time-out). `refused` hears of each answer given
 * to a request Express never saw (one it saw is logged and counted as its own).
 */
export function answerClientErrors(refused: (refusal: ErrorBody) => void = () => {}) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code !== "ECONNRESET" && isLingering(socket)) return;
    const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ""] ?? MALFORMED;
    // A request already being answered is counted as what it got (its body too slow: 408), unless
    // its client closed the connection before the body ended (499).
    if (inFlight && error.code !== "HPE_INVALID_EOF_STATE") closingAs(inFlight, refusal.status);
    if (inFlight) refuseUnderWay(inFlight);
    if (!inFlight) refused(refusal);
    endWith(socket, refusal);
  };
}

/** Writes the error as the whole response on a socket no response object holds, and closes it. */
function endWith(socket: Duplex, { status, code, message }: ErrorBody): void {
  const body = JSON.stringify({ status, code, message });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  lingerThenClose(socket as Socket);
}

const EXPECTATION_FAILED: ErrorBody = {
  status: 417,
  code: "expectation_failed",
  message: "The server cannot meet the request's Expect header; only 100-continue is supported.",
};

/**
 * The server's `checkExpectation` listener: an `Expect` other than `100-continue`, which Node
 * answers 417 with no body unless told otherwise. The body is not read; the connection closes.
 */
export function answerExpectationFailed(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(EXPECTATION_FAILED);
  res.writeHead(417, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  res.end(body);
}

/** Paths whose JSON body may be as big as an upload: a document's text (both spellings). */
const TEXT_BODY_PATH = /\/(?:create|update)[-_]by[-_]text\/?$/;
/** Paths whose form carries a file: a document's, by file (both spellings), or PATCH of a document. */
const FILE_FORM_PATH = /\/(?:create|update)[-_]by[-_]file\/?$/;
const DOCUMENT_PATH = /\/datasets\/[^/]+\/documents\/[^/]+\/?$/;

/**
 * The body limit of a request, by its path: an upload's for a document's text, an upload's and
 * its form's for a document's file, else the API's.
 */
export function bodyLimitOf(uploadLimitBytes: number) {
  return (req: IncomingMessage): number => {
    const path = (req.url ?? "").split("?", 1)[0]!;
    if (TEXT_BODY_PATH.test(path)) return uploadLimitBytes;
    if (FILE_FORM_PATH.test(path) || (req.method === "PATCH" && DOCUMENT_PATH.test(path)))
      return formLimitBytes(uploadLimitBytes);
    return BODY_LIMIT_BYTES;
  };
}

/**
 * The server's `checkContinue` listener, for `Expect: 100-continue`. Node would send `100 Continue`
 * to every one, and the client would then upload a body the API refuses unread. A body declared
 * over its path's limit (`limitOf`) gets no 100: the request goes on to its 413 without it, and the
 * connection closes after the answer (the client, waiting for the 100, has not sent the body the
 * connection still owes). Any other gets its 100 and goes on as usual.
 */
export function continueWithinLimit(server: Server, limitOf: (req: IncomingMessage) => number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (Number(req.headers["content-length"]) > limitOf(req)) res.setHeader("Connection", "close");
    else res.writeContinue();
    server.emit("request", req, res);
  };
}

/**
 * The server's `connect` listener: a CONNECT request, which Node hands over as a bare socket (and,
 * unheard, closes without a word). The API proxies nothing: 405, and the connection closes. The
 * socket is ours now, without the server's error listener or time-out: a client that resets it
 * must not end the process, nor one that never closes its side keep it open (the lingering close
 * has its bounds).
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on("error", () => socket.destroy());
  endWith(socket, {
    status: 405,
    code: "method_not_allowed",
    message: "The method is not allowed for the requested URL.",
  });
}
