import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { statusOf } from "../observability/response-status.js";

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;
/**
 * What an API key looks like (`app-…`, `ds-…` and 40 letters and digits; 16 catch a cut one), in
 * any case and wherever it stands, glued to other text too (`xds-…`). An id with such a word in it
 * (`uploads-42`, `cards-7f3a9b2c-…`) has no 16 letters and digits in a row after the dash.
 */
const KEY_LIKE = /(app|ds)-[A-Za-z0-9]{16,}/gi;
const looksLikeKey = (text: string) => text.search(KEY_LIKE) !== -1;
/**
 * The path with its percent-encoded letters, digits and `-._~` written plainly (RFC 3986: the same
 * URL), so an encoded key (`%64s%2D…`) shows as one.
 */
const withUnreservedDecoded = (path: string) =>
  path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return /[\w.~-]/.test(character) ? character : encoded;
  });
/** The path with anything that looks like a key cut to its prefix: a key pasted in a URL stays out of the logs. */
const withoutKeys = (path: string) => withUnreservedDecoded(path).replace(KEY_LIKE, "$1-…");

/**
 * Gives each request an id (`res.locals.requestId`, echoed in `X-Request-Id`: the caller's when it
 * is sane and not key-like, else a new UUID) and logs one line when it ends: method, path without
 * query or anything key-like, status, duration. Never headers or bodies, so never a key.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId =
      incoming && SANE_REQUEST_ID.test(incoming) && !looksLikeKey(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    // Below info (as in production at warn), the access line is not even assembled.
    if (!logger.isLevelEnabled("info")) return next();
    const started = process.hrtime.bigint();
    // At close: after the answer is sent, or when the connection closed before (`statusOf`).
    res.once("close", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const status = statusOf(res);
      logger.info(
        { requestId, method: req.method, path: withoutKeys(req.path), status, durationMs },
        "request",
      );
    });
    next();
  };
}
