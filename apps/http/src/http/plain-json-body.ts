import { AsyncResource } from "node:async_hooks";
import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { TextDecoder } from "node:util";
import type { Request, RequestHandler } from "express";
import { HttpError, INVALID_JSON, REQUEST_ABORTED, TOO_LARGE } from "./http-error.js";

/** `application/json` or a `+json` type, before any parameter. */
export const JSON_MEDIA_TYPE = String.raw`^\s*application\/(?:[\w.-]+\+)?json\s*`;
/** A JSON type with no parameter but `charset=utf-8`: the body is UTF-8 as sent. */
const PLAIN_JSON_TYPE = new RegExp(`${JSON_MEDIA_TYPE}(?:;\\s*charset\\s*=\\s*(?:utf-8|"utf-8")\\s*)?$`, "i");
const BYTE_ORDER_MARK = "\uFEFF";

/**
 * The body as almost every client sends it: UTF-8, not compressed, its length declared and within
 * the limit, not read yet.
 */
function readsPlainly(request: IncomingMessage, limitBytes: number): boolean {
  // Read already (a host app's own body parser, say): body-parser leaves what is there.
  if ((request.complete && !request.readable) || !request.socket?.readable) return false;
  const { headers } = request;
  if (headers["content-encoding"] !== undefined || headers["transfer-encoding"] !== undefined) return false;
  const length = Number(headers["content-length"]);
  return length > 0 && length <= limitBytes && PLAIN_JSON_TYPE.test(headers["content-type"] ?? "");
}

/**
 * As Flask parses: a byte order mark dropped, and nothing after it is no JSON (body-parser would
 * make it `{}`): a `SyntaxError`, as for any text that is not JSON.
 */
function parsedJson(text: string): unknown {
  return JSON.parse(text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);
}

const unsupportedCharset = () => new HttpError(415, "unsupported_media_type", "Unsupported charset.");

/** The charset a content type declares, lower-cased; `utf-8` when it declares none. */
function charsetOf(contentType: string): string {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? "utf-8";
}

/**
 * A body a host app's parser read before the router, as bytes (`express.raw`) or text
 * (`express.text`), parsed into `req.body` by the rules an unread body meets: a JSON charset (415),
 * the limit (413), JSON syntax (400).
 */
export function parseBodyReadByHost(request: Request, limitBytes: number): HttpError | undefined {
  const body = request.body as Buffer | string;
  const charset = charsetOf(request.headers["content-type"] ?? "");
  // body-parser's JSON rule: a JSON text is in a Unicode encoding.
  if (!charset.startsWith("utf-")) return unsupportedCharset();
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (size > limitBytes) return new HttpError(413, "request_entity_too_large", TOO_LARGE);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    return unsupportedCharset();
  }
  try {
    // Bytes that are not of the charset are no JSON text, as Flask reads them (never U+FFFD).
    request.body = parsedJson(typeof body === "string" ? body : decoder.decode(body));
  } catch {
    return new HttpError(400, "bad_request", INVALID_JSON);
  }
}

/** The body's bytes, UTF-8 (else no JSON, as Flask reads it: never U+FFFD), parsed into `req.body`. */
function parseInto(request: Request, chunks: Buffer[]): HttpError | undefined {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  if (!isUtf8(bytes)) return new HttpError(400, "bad_request", INVALID_JSON);
  try {
    request.body = parsedJson(bytes.toString("utf8"));
  } catch {
    return new HttpError(400, "bad_request", INVALID_JSON);
  }
}

/**
 * What body-parser's JSON parser does for a plain body, in a fraction of its time. Node delivers no
 * more than `Content-Length`; a connection closed before it is an aborted request. Any other body
 * is `otherwise`'s (body-parser's, whose errors the error handler knows).
 */
export function plainJsonBody(limitBytes: number, otherwise: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!readsPlainly(req, limitBytes)) return otherwise(req, res, next);
    if (req.complete) {
      // The whole body is here already (a step before it waited: a key read from the store, say).
      const chunks: Buffer[] = [];
      for (let chunk = req.read(); chunk !== null; chunk = req.read()) chunks.push(chunk);
      return next(parseInto(req, chunks));
    }
    // Called from the request's events: back in the caller's async context, as body-parser calls
    // (a resource run directly: `AsyncResource.bind` and `AsyncLocalStorage.snapshot` cost twice that).
    const callersContext = new AsyncResource("service-api.json-body");
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      req.off("data", onData).off("end", onEnd).off("error", onAborted).off("close", onAborted);
      callersContext.runInAsyncScope(next, null, error);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onAborted = () => settle(new HttpError(400, "bad_request", REQUEST_ABORTED));
    const onEnd = () => settle(parseInto(req, chunks));
    req.on("data", onData).on("end", onEnd).on("error", onAborted).on("close", onAborted);
  };
}
