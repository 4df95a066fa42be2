import express, { type Express, Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { closeWhileDraining, requireHost } from "./http/connection-rules.js";
import { errorHandler, unknownRoute } from "./http/error-handler.js";
import { requestContext } from "./http/request-context.js";
import { ServerMetrics } from "./observability/metrics.js";
import { registerConversationVariableRoutes } from "./routes/conversation-variables.js";
import { registerDocumentRoutes } from "./routes/documents.js";
import { registerHealthRoutes } from "./routes/health.js";
import { registerMetadataFieldRoutes } from "./routes/metadata-fields.js";
import { registerSiteRoutes } from "./routes/site.js";
import { registerTagBindingRoutes } from "./routes/tag-bindings.js";
import { CONFIG, LIFECYCLE, LOGGER, METRICS } from "./tokens.js";

/** The five operations' routes over a container, as mounted at `/v1`. */
export function serviceApiRoutes(container: DependencyContainer): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(ServerMetrics.markRouteBase);
  registerDocumentRoutes(router, container);
  registerConversationVariableRoutes(router, container);
  registerTagBindingRoutes(router, container);
  registerMetadataFieldRoutes(router, container);
  registerSiteRoutes(router, container);
  return router;
}

/** The standalone app: `/v1` routes, the probes, and the API's error shape for everything else. */
export function createApp(container: DependencyContainer): Express {
  const logger = container.resolve(LOGGER);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.set("trust proxy", container.resolve(CONFIG).trustProxy);
  if (container.isRegistered(METRICS)) app.use(container.resolve(METRICS).recordRequests);
  app.use(requestContext(logger));
  app.use(closeWhileDraining(container.resolve(LIFECYCLE)), requireHost);
  const root = Router();
  registerHealthRoutes(root, container);
  app.use(root);
  app.use("/v1", serviceApiRoutes(container));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return app;
}
