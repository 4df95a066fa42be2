import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request an id (`res.locals.requestId`, echoed in `X-Request-Id`: the caller's when it
 * is sane, else a new UUID) and logs one line when it ends: method,
 * path without query, status, duration. Never headers or bodies, so never a key.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    // Below info (as in production at warn), the access line is not even assembled.
    if (!logger.isLevelEnabled("info")) return next();
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId, method: req.method, path: req.path, status: res.statusCode, durationMs },
        "request",
      );
    });
    next();
  };
}
