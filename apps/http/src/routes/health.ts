import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { methodNotAllowed } from "../http/error-handler.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { LIFECYCLE, STORE } from "../tokens.js";

/**
 * How long readiness waits for the store: a second, as a probe waits by default (Kubernetes'
 * `timeoutSeconds`). A store that has not answered by then is not ready, though it may answer
 * later; probes meanwhile wait for the same ping rather than each taking a connection.
 */
export const READY_WITHIN_MS = 1_000;

/**
 * Probes, no key needed. `GET /healthz` (liveness): 200 while the process answers at all, whatever
 * the database does, so an outage does not get the server restarted. `GET /readyz` (readiness):
 * 200 while the store answers within {@link READY_WITHIN_MS} and the server is not draining, else 503.
 */
export function registerHealthRoutes(router: Router, container: DependencyContainer): void {
  const store = container.resolve(STORE);
  const lifecycle = container.resolve(LIFECYCLE);
  let pinging: Promise<boolean> | undefined;
  const answers = () => {
    pinging ??= store
      .ping()
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        pinging = undefined;
      });
    return pinging;
  };
  const answersInTime = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), READY_WITHIN_MS);
    });
    try {
      return await Promise.race([answers(), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  router
    .route("/healthz")
    .get((_req, res) => sendJson(res, { status: "ok" }))
    .all(methodNotAllowed(["GET", "HEAD"]));
  router
    .route("/readyz")
    .get(async (_req, res) => {
      if (lifecycle.draining) throw new HttpError(503, "service_unavailable", "The server is shutting down.");
      if (!(await answersInTime()))
        throw new HttpError(503, "service_unavailable", "The database does not answer.");
      sendJson(res, { status: "ready" });
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
