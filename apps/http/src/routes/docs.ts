import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Router } from "express";
import { methodNotAllowed } from "../http/error-handler.js";

/** Swagger UI's files, from its package: the page loads nothing from anywhere but this server. */
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/**
 * The page, its files named relative to where it was asked for (`base`: `docs/` from `/docs`, empty
 * from `/docs/`), so that it loads behind a proxy that serves the API under a path of its own.
 */
const page = (base: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Service API reference</title>
    <link rel="icon" type="image/png" href="${base}favicon-32x32.png">
    <link rel="stylesheet" href="${base}swagger-ui.css">
  </head>
  <body>
    <div id="reference"></div>
    <script src="${base}swagger-ui-bundle.js"></script>
    <script src="${base}reference.js"></script>
  </body>
</html>
`;
const PAGES = { fromDocs: page("docs/"), fromFolder: page("") };

/**
 * Swagger UI over the served document, found from this script's own address (under a proxy's path
 * too); the validator badge (an outside request) is off.
 */
const SCRIPT = `SwaggerUIBundle({
  url: new URL("../v1/openapi.json", document.currentScript.src).href,
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
});
`;

/** Only this server: scripts and styles of ours (Swagger UI sets inline styles), data: images. */
const POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'";

/**
 * `GET /docs`: the API reference, rendered by Swagger UI from `GET /v1/openapi.json`. Its scripts and
 * styles are served from here, so it works on a machine with no internet. No key needed.
 */
export function registerDocsRoutes(router: Router): void {
  router
    .route("/docs")
    .get((req, res) => {
      res.setHeader("Content-Security-Policy", POLICY);
      res.type("html").send(req.path.endsWith("/") ? PAGES.fromFolder : PAGES.fromDocs);
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
  router.get("/docs/reference.js", (_req, res) => {
    res.type("text/javascript").send(SCRIPT);
  });
  for (const [file, type] of Object.entries(ASSETS)) {
    router.get(`/docs/${file}`, (_req, res, next) => {
      res.sendFile(
        join(SWAGGER_UI, file),
        {
          // pnpm keeps packages under node_modules/.pnpm, which `send` would refuse as a dot folder.
          dotfiles: "allow",
          headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" },
        },
        next,
      );
    });
  }
}
