import type { DependencyContainer } from "tsyringe";
import type { PathRoute } from "../api/path-routes.js";
import { documentsFamily } from "../families/documents/index.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { HttpError } from "../http/http-error.js";
import { firstQueryValue, pathId } from "../http/params.js";
import { queryOf } from "../http/query.js";
import { attachment } from "../http/zip-response.js";

/**
 * Types a browser may show in place: the rest (a page, an SVG, XML: what could run script) is
 * always downloaded. A PDF gets no sandbox, which would keep the browser's own viewer from it.
 */
const INLINE = /^(?:text\/(?:plain|csv|markdown|vtt)|application\/pdf|image\/(?:png|jpeg|gif|webp))$/;

/** Where a signed file URL leads, relative to where the routes are mounted (Dify's path). */
export const FILE_PREVIEW_PATH = "/files/{file_id}/file-preview";

/**
 * `GET /files/{file_id}/file-preview?timestamp&nonce&sign`: a document's file, as uploaded, to
 * whoever holds a URL this server signed (no API key), while it has not expired (`FILES_ACCESS_TIMEOUT`)
 * and a document of a dataset in service names the file. A bad or expired signature is 403; a file
 * no longer served, 404. Served with its type, never sniffed, sandboxed, and shown in place only
 * when it is of a type that runs nothing: an uploaded page runs no script in this origin.
 */
export function filePreviewRoute(container: DependencyContainer, prefix = ""): PathRoute {
  const path = `${prefix}${FILE_PREVIEW_PATH}`;
  return {
    path,
    label: path.replace(/\{(\w+)\}/g, ":$1"),
    methods: new Map([
      [
        "GET",
        [
          async (req, res) => {
            const { fileUrls, readSignedFile } = container.resolve(documentsFamily.token);
            const fileId = pathId(req.params.file_id);
            const query = queryOf(req);
            const signature = {
              timestamp: firstQueryValue(query.timestamp),
              nonce: firstQueryValue(query.nonce),
              sign: firstQueryValue(query.sign),
            };
            if (!(await fileUrls.verify(fileId, signature)))
              throw new HttpError(403, "forbidden", "The file's signature is invalid or has expired.");
            const { file, bytes } = await readSignedFile.execute(fileId);
            const type = file.mimeType || "application/octet-stream";
            const inline = firstQueryValue(query.as_attachment) !== "true" && INLINE.test(type);
            res.writeHead(200, {
              "Content-Type": type,
              "Content-Length": bytes.byteLength,
              "Content-Disposition": attachment(file.name, inline ? "inline" : "attachment"),
              "X-Content-Type-Options": "nosniff",
              ...(type !== "application/pdf" && { "Content-Security-Policy": "sandbox" }),
              "Cache-Control": "private, no-store",
            });
            res.end(bytes);
          },
        ],
      ],
    ]),
    otherMethods: methodNotAllowed(["GET", "HEAD"]),
  };
}
