import express, { type Express, type RequestHandler, Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { serializedOpenApiDocument } from "./api/openapi.js";
import type { Operation } from "./api/operation.js";
import { inTurn, type PathRoute, pathRoutes } from "./api/path-routes.js";
import { operationRoutes } from "./api/register-operations.js";
import type { Family } from "./families/family.js";
import { datasetsFamily, FAMILIES } from "./families/index.js";
import { closeWhileDraining, requireHost } from "./http/connection-rules.js";
import { servedToBrowsers } from "./http/cors.js";
import { errorHandler, methodNotAllowed, unknownRoute } from "./http/error-handler.js";
import { forwardedPrefix } from "./http/forwarded-prefix.js";
import { requestContext } from "./http/request-context.js";
import { ServerMetrics } from "./observability/metrics.js";
import { registerDocsRoutes } from "./routes/docs.js";
import { FILE_PREVIEW_PATH, filePreviewRoute } from "./routes/file-preview.js";
import { registerHealthRoutes } from "./routes/health.js";
import { CONFIG, LIFECYCLE, LOGGER, METRICS } from "./tokens.js";

/** Every operation of every family, over the use cases the container built. */
export function serviceApiOperations(container: DependencyContainer): Operation[] {
  return (FAMILIES as readonly Family[]).flatMap((family) =>
    family.operations(container.resolve(family.token)),
  );
}

/** Where the OpenAPI document is served, relative to where the routes are mounted. */
const OPENAPI_PATH = "/openapi.json";

/**
 * The paths the API serves, relative to where its routes are mounted, known without a store: an
 * operation uses its family's use cases only when it handles a request.
 */
export function serviceApiPaths(): string[] {
  const operations = (FAMILIES as readonly Family[]).flatMap((family) => family.operations({}));
  return [OPENAPI_PATH, FILE_PREVIEW_PATH, ...operations.map((operation) => operation.path)];
}

/**
 * The API's routes over a container, to mount at `/v1` or wherever a host wants them, with
 * `GET /openapi.json` describing them where they are mounted.
 */
export function serviceApiRoutes(container: DependencyContainer): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(
    ServerMetrics.markRouteBase,
    apiRoutes(container, ""),
    pathRoutes([filePreviewRoute(container)]),
  );
  return router;
}

/**
 * The API's routes with `prefix` written into each path, as one handler. The standalone app uses
 * it at the root with `/v1` written in: a router mounted under a path rewrites every request's URL
 * on the way in and out, and parses it again.
 */
function apiRoutes(
  container: DependencyContainer,
  prefix: string,
  served: (route: PathRoute) => PathRoute = (route) => route,
): RequestHandler {
  const operations = serviceApiOperations(container);
  const documentAt = serializedOpenApiDocument(operations);
  const openApiDocument: PathRoute = {
    path: `${prefix}${OPENAPI_PATH}`,
    label: `${prefix}${OPENAPI_PATH}`,
    methods: new Map([
      [
        "GET",
        [
          (req, res) => {
            // The paths are relative to where the routes are mounted (`/v1` in the standalone app),
            // under the path a trusted proxy serves this server at.
            const serverUrl = `${forwardedPrefix(req)}${req.baseUrl}${prefix}` || "/";
            res
              .writeHead(200, { "Content-Type": "application/json; charset=utf-8" })
              .end(documentAt(serverUrl));
          },
        ],
      ],
    ]),
    otherMethods: methodNotAllowed(["GET", "HEAD"]),
  };
  const openDataset = container.resolve(datasetsFamily.token).openDataset;
  return pathRoutes(
    [openApiDocument, ...operationRoutes(container, operations, openDataset, prefix)].map(served),
  );
}

/** The standalone app: `/v1` routes, the probes, `/docs`, and the API's error shape for everything else. */
export function createApp(container: DependencyContainer): Express {
  const logger = container.resolve(LOGGER);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.set("trust proxy", container.resolve(CONFIG).trustProxy);
  // What every request passes, as one layer of Express's router: each layer costs its matching.
  const metrics = container.isRegistered(METRICS) ? [container.resolve(METRICS).recordRequests] : [];
  app.use(
    inTurn([
      ...metrics,
      requestContext(logger),
      closeWhileDraining(container.resolve(LIFECYCLE)),
      requireHost,
    ]),
  );
  // Browsers get what Dify's service API gives them (a host of the embedded router sets its own).
  app.use(apiRoutes(container, "/v1", servedToBrowsers));
  // Where signed file URLs lead (`FILES_URL`), at the root as Dify serves them.
  app.use(pathRoutes([filePreviewRoute(container)]));
  const root = Router();
  registerHealthRoutes(root, container);
  registerDocsRoutes(root);
  app.use(root);
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return app;
}
