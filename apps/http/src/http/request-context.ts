import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;
/**
 * What an API key looks like (`app-…`, `ds-…` and 40 letters and digits; 16 catch a cut one), its
 * dash percent-encoded too (`ds%2D…`), wherever it stands (`%20app-…` too), but not inside a word
 * (`uploads-42`, `cards-7f3a…` are ids).
 */
const KEY_LIKE = /(?<![A-Za-z])(app|ds)(?:-|%2[dD])[A-Za-z0-9]{16,}/g;
const looksLikeKey = (text: string) => text.search(KEY_LIKE) !== -1;
/** The path with anything that looks like a key cut to its prefix: a key pasted in a URL stays out of the logs. */
const withoutKeys = (path: string) => path.replace(KEY_LIKE, "$1-…");

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
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId, method: req.method, path: withoutKeys(req.path), status: res.statusCode, durationMs },
        "request",
      );
    });
    next();
  };
}
