import { isUtf8 } from "node:buffer";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "@service-api/domain";
import express, { type RequestHandler } from "express";
import { type ErrorBody, HttpError, INVALID_JSON, TOO_LARGE } from "./http-error.js";
import { JSON_MEDIA_TYPE, parseBodyReadByHost, plainJsonBody } from "./plain-json-body.js";
import { stopIfRefused } from "./refused-under-way.js";

const JSON_TYPE = new RegExp(`${JSON_MEDIA_TYPE}(?:;|$)`, "i");
/** 1 MB, as body-parser counts it: the 413's message says so. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0");

/** A JSON body's size limit, and what a body over it is answered. */
export interface BodyLimit {
  bytes: number;
  tooLarge: ErrorBody;
}

export const DEFAULT_BODY_LIMIT: BodyLimit = {
  bytes: BODY_LIMIT_BYTES,
  tooLarge: { status: 413, code: "request_entity_too_large", message: TOO_LARGE },
};

const tooLargeError = ({ tooLarge }: BodyLimit) =>
  new HttpError(tooLarge.status, tooLarge.code as never, tooLarge.message);

const requireJsonType =
  (limit: BodyLimit): RequestHandler =>
  (req, _res, next) => {
    if (!JSON_TYPE.test(req.get("content-type") ?? "")) {
      throw new HttpError(
        415,
        "unsupported_media_type",
        "Did not attempt to load JSON data because the request Content-Type was not 'application/json'.",
      );
    }
    if (!hasBody(req.headers)) throw new HttpError(400, "bad_request", INVALID_JSON);
    // Declared too large: answered now, not after the whole body has arrived (a client that never
    // sends it waited for the request's time-out). The connection then closes lingering: what still
    // comes is read and dropped, within bounds (closing at once would reset it, the answer with it).
    if (Number(req.headers["content-length"]) > limit.bytes) throw tooLargeError(limit);
    next();
  };

/** JSON.parse itself does not recurse; what reads the value later may, so depth is bounded first. */
const limitDepth: RequestHandler = (req, _res, next) => {
  if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
    throw new HttpError(400, "bad_request", `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  next();
};

/** A byte order mark in UTF-8, UTF-16 and UTF-32 (LE and BE). */
const BYTE_ORDER_MARKS = new Set(["efbbbf", "fffe", "feff", "fffe0000", "0000feff"]);

/**
 * An empty body, or one of a byte order mark alone, is no JSON, as Flask reads it; body-parser
 * would make it `{}`. Nor are bytes that are not UTF-8 in a UTF-8 body: body-parser would read
 * them as U+FFFD. Its `verify` failure is answered as JSON that does not parse.
 */
const refuseUnreadable = (_req: unknown, _res: unknown, body: Buffer, charset: string) => {
  if (body.length === 0 || (body.length <= 4 && BYTE_ORDER_MARKS.has(body.toString("hex"))))
    throw new Error("The JSON body is empty.");
  if (charset === "utf-8" && !isUtf8(body)) throw new Error("The JSON body is not UTF-8.");
};

// Not strict: any JSON value parses, and one that is not an object is the schema's 400 "body: …".
const parseAnyBody = (limit: BodyLimit): RequestHandler => {
  const parse = express.json({
    limit: limit.bytes,
    strict: false,
    type: () => true,
    verify: refuseUnreadable,
  });
  // body-parser's own 413 says its limit in its words: the operation's answer instead.
  return (req, res, next) =>
    parse(req, res, (error?: unknown) =>
      next(
        (error as { type?: string } | undefined)?.type === "entity.too.large" ? tooLargeError(limit) : error,
      ),
    );
};

/**
 * A body a host app's parser has read already: as bytes or text (`express.raw`, `express.text`), it
 * is parsed here; as a value (`express.json`), it is taken as is. Any other, body-parser's.
 */
const parseOtherBody = (limit: BodyLimit): RequestHandler => {
  const parseAny = parseAnyBody(limit);
  return (req, res, next) => {
    if (Buffer.isBuffer(req.body) || typeof req.body === "string") {
      const refused = parseBodyReadByHost(req, limit.bytes);
      return next(refused?.status === 413 ? tooLargeError(limit) : refused);
    }
    parseAny(req, res, next);
  };
};

/**
 * A JSON body within `limit`, checked in the reference's order: media type (415), size (413),
 * syntax (400), then nesting (400, deeper than `MAX_JSON_DEPTH`). A request the server's time-out
 * answered while its body came goes no further.
 */
export function jsonBodyWithin(limit: BodyLimit): RequestHandler[] {
  return [
    requireJsonType(limit),
    plainJsonBody(limit.bytes, parseOtherBody(limit)),
    stopIfRefused,
    limitDepth,
  ];
}

/** A JSON body of at most 1 MB (body-parser's count). */
export const jsonBody: RequestHandler[] = jsonBodyWithin(DEFAULT_BODY_LIMIT);
