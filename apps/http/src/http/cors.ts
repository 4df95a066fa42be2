import type { RequestHandler } from "express";
import { answeredMethods, type PathRoute } from "../api/path-routes.js";
import { methodNotAllowed } from "./error-handler.js";

/*
 * Dify's service API answers browsers with flask-cors: any origin, no credentials, these headers
 * and methods (`api/extensions/ext_blueprints.py`), and Flask answers OPTIONS on every route.
 */
const ALLOWED_HEADERS = new Set(["content-type", "authorization", "x-app-code"]);
/** flask-cors writes its list sorted, and tests a requested method as a part of this text. */
const ALLOWED_METHODS = "DELETE, GET, OPTIONS, PATCH, POST, PUT";

/** The requested headers the API allows, sorted, as flask-cors answers them; undefined if none. */
function allowedHeaders(requested: string | undefined): string | undefined {
  const allowed = (requested ?? "")
    .split(",")
    .map((header) => header.trim())
    .filter((header) => ALLOWED_HEADERS.has(header.toLowerCase()))
    .sort();
  return allowed.length > 0 ? allowed.join(", ") : undefined;
}

/**
 * CORS headers as flask-cors sets them: the request's `Origin` echoed (and `Vary: Origin`), or `*`
 * when it has none; on a preflight for a method the API serves, the headers and methods allowed.
 */
export const corsHeaders: RequestHandler = (req, res, next) => {
  const origin = req.headers.origin;
  if (origin) res.setHeader("Access-Control-Allow-Origin", origin).setHeader("Vary", "Origin");
  else res.setHeader("Access-Control-Allow-Origin", "*");
  const requestedMethod = req.method === "OPTIONS" && req.headers["access-control-request-method"];
  if (requestedMethod && ALLOWED_METHODS.includes(requestedMethod.toUpperCase())) {
    const headers = allowedHeaders(req.headers["access-control-request-headers"]);
    if (headers) res.setHeader("Access-Control-Allow-Headers", headers);
    res.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
  }
  next();
};

/**
 * A route as Dify's blueprint serves it to browsers: CORS headers on every answer, and OPTIONS
 * answered 200 with `Allow` (Flask's automatic OPTIONS), which the 405's `Allow` then lists too.
 */
export function servedToBrowsers(route: PathRoute): PathRoute {
  const allowed = [...answeredMethods(route.methods.keys()), "OPTIONS"];
  const answerOptions: RequestHandler = (_req, res) => {
    res.writeHead(200, { Allow: allowed.join(", "), "Content-Length": 0 }).end();
  };
  const notAllowed = methodNotAllowed(allowed);
  return {
    ...route,
    methods: new Map([
      ...[...route.methods].map(([method, handlers]) => [method, [corsHeaders, ...handlers]] as const),
      ["OPTIONS", [corsHeaders, answerOptions]],
    ]),
    otherMethods: (req, res, next) => corsHeaders(req, res, () => notAllowed(req, res, next)),
  };
}
