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
 * first file up to `fileBytes` (one byte more is a 413 `tooLarge`, answered at once), later files
 * counted and dropped unread, text fields up to 1 MB in all, at most 64 parts. A body that is not a
 * form is an empty form (the use case says what it lacks). A malformed one is a 400.
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
        limits: { parts: FORM_LIMITS.parts, fieldSize: FORM_LIMITS.fieldBytes, fileSize: fileBytes },
      });
    } catch {
      return next(new HttpError(400, "bad_request", "The multipart body has no boundary."));
    }
    readForm(req, parser, tooLarge, new AsyncResource("service-api.multipart-form"), next);
  };
}

function readForm(
  req: Request,
  parser: BusboyInstance,
  tooLarge: () => Error,
  callersContext: AsyncResource,
  next: (error?: unknown) => void,
): void {
  const form: UploadForm = { files: [], fields: {} };
  const firstFile: Buffer[] = [];
  let fieldBytes = 0;
  let settled = false;
  const settle = (error?: unknown) => {
    if (settled) return;
    settled = true;
    req.unpipe(parser);
    req.off("close", onClose);
    if (error === undefined) {
      if (form.files[0]) form.files[0].bytes = Buffer.concat(firstFile);
      req.body = form;
    } else req.pause();
    callersContext.runInAsyncScope(next, null, error);
  };
  const malformed = () => settle(new HttpError(400, "bad_request", "The multipart body is malformed."));
  const fieldsTooLarge = () => settle(new HttpError(413, "request_entity_too_large", TOO_LARGE));
  const onClose = () => {
    if (!req.complete) settle(new HttpError(400, "bad_request", REQUEST_ABORTED));
  };
  parser.on("file", (_field, stream, name, _encoding, mimeType) => {
    // A second file is refused whole (too_many_files): its bytes are not kept.
    const first = form.files.length === 0;
    form.files.push({ name, mimeType, bytes: new Uint8Array(0) });
    stream.on("error", malformed);
    if (!first) return void stream.resume();
    stream.on("data", (chunk: Buffer) => firstFile.push(chunk));
    stream.on("limit", () => settle(tooLarge()));
  });
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    fieldBytes += Buffer.byteLength(value);
    if (valueTruncated || fieldBytes > FORM_LIMITS.fieldBytes) return fieldsTooLarge();
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
