import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { methodNotAllowed } from "../http/error-handler.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { STORE } from "../tokens.js";

/** `GET /healthz`: 200 while the database answers, 503 otherwise. No key needed. */
export function registerHealthRoutes(router: Router, container: DependencyContainer): void {
  const store = container.resolve(STORE);
  router
    .route("/healthz")
    .get(async (_req, res) => {
      await store.ping().catch(() => {
        throw new HttpError(503, "service_unavailable", "The database does not answer.");
      });
      sendJson(res, { status: "ok" });
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
