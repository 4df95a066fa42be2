import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { closingAs } from "../observability/response-status.js";
import { errorBodyOf, HttpError, INTERNAL_ERROR } from "./http-error.js";
import { closesLingeringly, largeBodyStillComing } from "./lingering-close.js";
import { sendJson } from "./send-json.js";

/** Every route's last resort: a 404 in the API's error shape. */
export const unknownRoute: RequestHandler = () => {
  throw new HttpError(404, "not_found", "The requested URL was not found on the server.");
};

/** For a known path asked with a method it does not serve. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return (_req, res) => {
    res.setHeader("Allow", allowed.join(", "));
    throw new HttpError(405, "method_not_allowed", "The method is not allowed for the requested URL.");
  };
}

/** How long a client is asked to wait before trying a 503 again, in seconds. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Turns any error into `{status, code, message}`. Unknown errors are logged and answered 500, never
 * echoed. A 503 (the store cannot be reached) says when to retry and is not logged here: the store
 * outage logs once when it starts and once when it ends. A refusal of a request whose large body
 * (over 64 KiB, or of unknown length) has not all arrived closes the connection, lingering, where
 * the server can: the client need not send the rest (Node would read it all, however large or slow,
 * keeping the connection). A small one Node reads and drops, keeping the connection.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const body = errorBodyOf(error);
    if (!body) logger.error({ requestId: res.locals.requestId, err: error }, "request failed");
    const { status, code, message } = body ?? INTERNAL_ERROR;
    if (res.headersSent) {
      closingAs(res, status);
      res.destroy();
      return;
    }
    if (status === 503) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    if (largeBodyStillComing(req) && closesLingeringly(req.socket)) res.setHeader("Connection", "close");
    sendJson(res, { status, code, message }, status);
  };
}
