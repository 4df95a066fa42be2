import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { methodNotAllowed } from "../http/error-handler.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { LIFECYCLE, STORE } from "../tokens.js";

/**
 * Probes, no key needed. `GET /healthz` (liveness): 200 while the process answers at all, whatever
 * the database does, so an outage does not get the server restarted. `GET /readyz` (readiness):
 * 200 while the store answers and the server is not draining, else 503.
 */
export function registerHealthRoutes(router: Router, container: DependencyContainer): void {
  const store = container.resolve(STORE);
  const lifecycle = container.resolve(LIFECYCLE);
  router
    .route("/healthz")
    .get((_req, res) => sendJson(res, { status: "ok" }))
    .all(methodNotAllowed(["GET", "HEAD"]));
  router
    .route("/readyz")
    .get(async (_req, res) => {
      if (lifecycle.draining) throw new HttpError(503, "service_unavailable", "The server is shutting down.");
      await store.ping().catch(() => {
        throw new HttpError(503, "service_unavailable", "The database does not answer.");
      });
      sendJson(res, { status: "ready" });
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
