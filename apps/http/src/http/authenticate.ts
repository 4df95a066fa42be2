import type { AppPrincipal, AuthenticateApiKey, WorkspacePrincipal } from "@service-api/application";
import { UnauthorizedError } from "@service-api/domain";
import type { Request, RequestHandler, Response } from "express";

/** The bearer token of a request, or a 401 with Dify's messages. The scheme is case-insensitive. */
export function bearerToken(req: Request): string {
  const header = req.get("authorization");
  if (!header) throw new UnauthorizedError("Authorization header must be provided and start with 'Bearer'");
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "bearer" || !token || rest.length > 0) {
    throw new UnauthorizedError("Authorization scheme must be 'Bearer'");
  }
  return token;
}

/** Requires an app key; the app it grants is then `appOf(res)`. */
export function requireAppKey(authenticate: AuthenticateApiKey): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await authenticate.forApp(bearerToken(req));
    next();
  };
}

/** Requires a knowledge key; the workspace it grants is then `workspaceOf(res)`. */
export function requireDatasetKey(authenticate: AuthenticateApiKey): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await authenticate.forWorkspace(bearerToken(req));
    next();
  };
}

export function appOf(res: Response): AppPrincipal["app"] {
  const principal = res.locals.principal as AppPrincipal | WorkspacePrincipal | undefined;
  if (principal?.kind !== "app") throw new Error("Route is missing requireAppKey");
  return principal.app;
}

export function workspaceOf(res: Response): string {
  const principal = res.locals.principal as AppPrincipal | WorkspacePrincipal | undefined;
  if (principal?.kind !== "dataset") throw new Error("Route is missing requireDatasetKey");
  return principal.workspaceId;
}
