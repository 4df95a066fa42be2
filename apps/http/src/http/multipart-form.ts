import { AsyncResource } from "node:async_hooks";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import type { SentFile } from "@service-api/domain";
import type { Request, RequestHandler } from "express";
import { HttpError, REQUEST_ABORTED, TOO_LARGE } from "./http-error.js";
import { BODY_LIMIT_BYTES } from "./json-body.js";

/** A `multipart/form-data` body as read: its files (every file part, in order) and its text fields. */
export interface UploadForm {
  files: SentFile[];
  /** Each text field's first value. */
  fields: Record<string, string>;
}

/** Parts a form may have; its text fields' size, in all, beside the file. */
export const FORM_LIMITS = { parts: 64, fieldBytes: BODY_LIMIT_BYTES } as const;

const MULTIPART = /^\s*multipart\/form-data\s*(?:;|$)/i;
const EMPTY_FORM: UploadForm = { files: [], fields: {} };

/** A form's limit: a file within `fileBytes`, the text fields beside it, what the parts' headers take. */
export const formLimitBytes = (fileBytes: number) => fileBytes + FORM_LIMITS.fieldBytes + 64 * 1024;

/**
 * Reads a `multipart/form-data` body into `req.body` (an `UploadForm`), by busboy, bounded: the
 * first part named `file` kept up to `fileBytes` (past it, `truncated`: the use case answers 413 in
 * its turn), other file parts counted and dropped unread, text fields up to 1 MB in all, at most 64
 * parts. A part is a file when it has a file name, as Werkzeug reads it. A body declared over the
 * form's limit is `tooLarge` at once; one that is not a form is an empty form (the use case says
 * what it lacks); a malformed one is a 400.
 */
export function multipartForm(fileBytes: number, tooLarge: () => Error): RequestHandler {
  return (req, _res, next) => {
    if (!MULTIPART.test(req.get("content-type") ?? "")) {
      req.body = EMPTY_FORM;
      return next();
    }
    if (Number(req.headers["content-length"]) > formLimitBytes(fileBytes)) return next(tooLarge());
    let parser: BusboyInstance;
    try {
      parser = Busboy({
        headers: req.headers as never,
        preservePath: true,
        isPartAFile: (_field, _type, filename) => filename !== undefined,
        limits: { parts: FORM_LIMITS.parts, fieldSize: FORM_LIMITS.fieldBytes, fileSize: fileBytes },
      });
    } catch {
      return next(new HttpError(400, "bad_request", "The multipart body has no boundary."));
    }
    readForm(req, parser, new AsyncResource("service-api.multipart-form"), next);
  };
}

function readForm(
  req: Request,
  parser: BusboyInstance,
  callersContext: AsyncResource,
  next: (error?: unknown) => void,
): void {
  const form: UploadForm = { files: [], fields: {} };
  let source: { file: SentFile; chunks: Buffer[] } | undefined;
  let fieldBytes = 0;
  let settled = false;
  const settle = (error?: unknown) => {
    if (settled) return;
    settled = true;
    req.unpipe(parser);
    req.off("close", onClose);
    if (error === undefined) {
      if (source) source.file.bytes = Buffer.concat(source.chunks);
      req.body = form;
    } else {
      // What the client still sends is read and dropped: the answer reaches a client that sends
      // its whole body first (the error handler closes a large one's connection, lingering).
      req.resume();
    }
    callersContext.runInAsyncScope(next, null, error);
  };
  const malformed = () => settle(new HttpError(400, "bad_request", "The multipart body is malformed."));
  const onClose = () => {
    if (!req.complete) settle(new HttpError(400, "bad_request", REQUEST_ABORTED));
  };
  parser.on("file", (field, stream, name, _encoding, mimeType) => {
    const file: SentFile = { field, name, mimeType, bytes: new Uint8Array(0) };
    form.files.push(file);
    stream.on("error", malformed);
    // Only the first part named `file` is the upload; any other file is counted (too_many_files).
    if (field !== "file" || source) return void stream.resume();
    source = { file, chunks: [] };
    const { chunks } = source;
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("limit", () => {
      file.truncated = true;
    });
  });
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    fieldBytes += Buffer.byteLength(value);
    if (valueTruncated || fieldBytes > FORM_LIMITS.fieldBytes)
      return settle(new HttpError(413, "request_entity_too_large", TOO_LARGE));
    if (!Object.hasOwn(form.fields, name)) form.fields[name] = value;
  });
  parser.on("partsLimit", () =>
    settle(
      new HttpError(413, "request_entity_too_large", `The form has more than ${FORM_LIMITS.parts} parts.`),
    ),
  );
  parser.on("error", malformed);
  parser.on("finish", () => settle());
  req.on("close", onClose);
  req.pipe(parser);
}
