import type { AppPrincipal, WorkspacePrincipal } from "@service-api/application";
import { UnauthorizedError } from "@service-api/domain";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { DependencyContainer } from "tsyringe";
import { UNAUTHORIZED } from "../api/errors.js";
import { AUTHENTICATE_API_KEY, RATE_LIMITS } from "../tokens.js";

/**
 * The bearer token of a request, or a 401 with Dify's messages, as Dify tells them apart: a header
 * without a space in it is missing; the word before the first space is the scheme, in any case; the
 * rest is the token (one with a space in it is no key, so invalid).
 */
export function bearerToken(req: Request): string {
  const header = req.get("authorization")?.trim() ?? "";
  const [, scheme, token] = /^(\S+)\s+(.+)$/s.exec(header) ?? [];
  if (!header.includes(" ") || !scheme || !token) throw new UnauthorizedError(UNAUTHORIZED.no_header.message);
  if (scheme.toLowerCase() !== "bearer") throw new UnauthorizedError(UNAUTHORIZED.scheme.message);
  return token;
}

type Principal = AppPrincipal | WorkspacePrincipal;

/**
 * Authentication with the rate limits around it: an address over its limit of failures is refused
 * first, a failure is counted, and a request with an accepted key counts against the key's limit.
 */
function requireKey(
  container: DependencyContainer,
  grant: (token: string) => Promise<Principal>,
): RequestHandler {
  const { perKey, authFailures } = container.resolve(RATE_LIMITS);
  const authenticated = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      res.locals.principal = await grant(bearerToken(req));
    } catch (error) {
      if (authFailures && error instanceof UnauthorizedError)
        return authFailures.failed(req, res, error, next);
      throw error;
    }
    if (perKey) await perKey(req, res, next);
    else next();
  };
  if (!authFailures) return authenticated;
  return (req, res, next) =>
    authFailures.gate(req, res, (error?: unknown) => {
      if (error) return next(error);
      authenticated(req, res, next).catch(next);
    });
}

/** Requires an app key; the app it grants is then `appOf(res)`. */
export function requireAppKey(container: DependencyContainer): RequestHandler {
  const authenticate = container.resolve(AUTHENTICATE_API_KEY);
  return requireKey(container, (token) => authenticate.forApp(token));
}

/** Requires a knowledge key; the workspace it grants is then `workspaceOf(res)`. */
export function requireDatasetKey(container: DependencyContainer): RequestHandler {
  const authenticate = container.resolve(AUTHENTICATE_API_KEY);
  return requireKey(container, (token) => authenticate.forWorkspace(token));
}

export function appOf(res: Response): AppPrincipal["app"] {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== "app") throw new Error("Route is missing requireAppKey");
  return principal.app;
}

export function workspaceOf(res: Response): string {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== "dataset") throw new Error("Route is missing requireDatasetKey");
  return principal.workspaceId;
}
