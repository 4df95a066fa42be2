import type { RequestHandler } from "express";
import type { ServerLifecycle } from "../lifecycle/server-lifecycle.js";
import { HttpError } from "./http-error.js";

/** While the server drains, every response closes its connection, so clients reconnect elsewhere. */
export function closeWhileDraining(lifecycle: ServerLifecycle): RequestHandler {
  return (_req, res, next) => {
    if (lifecycle.draining) res.setHeader("Connection", "close");
    next();
  };
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2); Node would answer its absence with an empty 400. */
export const requireHost: RequestHandler = (req, _res, next) => {
  if (req.httpVersion === "1.1" && req.headers.host === undefined)
    throw new HttpError(400, "bad_request", "The request has no Host header.");
  next();
};
