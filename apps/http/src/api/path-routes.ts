import type { Request, RequestHandler, Response } from "express";

/** A path's handlers, by method (upper case), and what answers its other methods. */
export interface PathRoute {
  /** `/datasets/{dataset_id}`: literal segments and `{name}` parameters. */
  path: string;
  /** The template the request metrics label it with (`req.route.path`). */
  label: string;
  methods: ReadonlyMap<string, readonly RequestHandler[]>;
  otherMethods: RequestHandler;
}

type Segment = { literal: string; param?: undefined } | { param: string };

interface Compiled {
  route: PathRoute;
  segments: Segment[];
  matched: { path: string };
}

const segmentsOf = (path: string): Segment[] =>
  path
    .split("/")
    .slice(1)
    .map((segment) => (segment.startsWith("{") ? { param: segment.slice(1, -1) } : { literal: segment }));

/**
 * Serves `routes` as Express's router would (`caseSensitive`, not `strict`), without its layers:
 * a path matches a route of its number of segments whose literal segments it holds exactly, the
 * first in `routes`' order; one trailing slash is allowed; a parameter takes one non-empty segment,
 * percent-decoded (a malformed one is a `URIError` with status 400, as Express's). The method picks
 * the handlers (HEAD runs GET's); any other method runs `otherMethods`. Handlers run in turn as
 * Express runs a route's: `next()` goes on; `next(error)`, a throw or a rejected promise passes the
 * error on; `next("route")` tries the routes after this one, and `next("router")` leaves them all.
 */
export function pathRoutes(routes: readonly PathRoute[]): RequestHandler {
  const byLength = new Map<number, Compiled[]>();
  for (const route of routes) {
    const segments = segmentsOf(route.path);
    const compiled = { route, segments, matched: { path: route.label } };
    byLength.set(segments.length, [...(byLength.get(segments.length) ?? []), compiled]);
  }
  return (req, res, next) => {
    const segments = requestSegments(req.path);
    const candidates = byLength.get(segments.length - 1) ?? [];
    const serveFrom = (first: number): void => {
      for (let index = first; index < candidates.length; index++) {
        const candidate = candidates[index]!;
        const params = paramsOf(candidate.segments, segments);
        if (params === undefined) continue;
        let decoded: Record<string, string>;
        try {
          decoded = decodedParams(params);
        } catch (error) {
          next(error);
          return;
        }
        req.params = decoded;
        req.route = candidate.matched;
        const { methods, otherMethods } = candidate.route;
        const handlers = methods.get(req.method) ?? (req.method === "HEAD" ? methods.get("GET") : undefined);
        runInTurn(handlers ?? [otherMethods], req, res, (error?: unknown) => {
          if (error === "route") serveFrom(index + 1);
          else if (error === "router") next();
          else next(error);
        });
        return;
      }
      next();
    };
    serveFrom(0);
  };
}

/** A request path's segments, the first empty: `/a/b/` → `["", "a", "b"]` (one trailing slash is allowed). */
const requestSegments = (path: string) =>
  (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path).split("/");

/**
 * Whether `pathRoutes` would serve a path from one of `paths` (templates as `PathRoute.path`), for
 * any method: the same matching, without a handler.
 */
export function servesPath(paths: readonly string[]): (path: string) => boolean {
  const byLength = new Map<number, Segment[][]>();
  for (const path of paths) {
    const segments = segmentsOf(path);
    byLength.set(segments.length, [...(byLength.get(segments.length) ?? []), segments]);
  }
  return (path) => {
    const segments = requestSegments(path);
    return (byLength.get(segments.length - 1) ?? []).some((route) => paramsOf(route, segments) !== undefined);
  };
}

/** The methods a route answers, by the methods it has handlers for: HEAD wherever GET is (it runs GET's). */
export const answeredMethods = (methods: Iterable<string>): string[] => {
  const listed = [...methods];
  return listed.includes("GET") ? [...listed, "HEAD"] : listed;
};

/** The raw parameters where the path's segments (after the leading empty one) fit, else undefined. */
function paramsOf(route: Segment[], segments: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < route.length; index++) {
    const expected = route[index]!;
    const segment = segments[index + 1]!;
    if (expected.param === undefined) {
      if (segment !== expected.literal) return undefined;
    } else if (segment === "") return undefined;
    else params[expected.param] = segment;
  }
  return params;
}

function decodedParams(params: Record<string, string>): Record<string, string> {
  for (const name in params) {
    const value = params[name]!;
    if (!value.includes("%")) continue;
    try {
      params[name] = decodeURIComponent(value);
    } catch (error) {
      // As Express's router gives it to error handlers.
      if (error instanceof URIError)
        Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
      throw error;
    }
  }
  return params;
}

/**
 * The handlers as one: each runs in turn, as Express runs a route's, and past the last the request
 * goes on. One layer of Express's router instead of one per handler, each matched against the path.
 */
export const inTurn =
  (handlers: readonly RequestHandler[]): RequestHandler =>
  (req, res, next) =>
    runInTurn(handlers, req, res, next);

/** Runs the handlers in turn; `done` gets an error, `"route"`, `"router"`, or nothing past the last. */
function runInTurn(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: (error?: unknown) => void,
) {
  let index = 0;
  const step = (error?: unknown) => {
    if (error) return done(error);
    const handler = handlers[index++];
    if (handler === undefined) return done();
    try {
      const returned: unknown = handler(req, res, step);
      if (returned instanceof Promise)
        returned.then(undefined, (rejection: unknown) => step(rejection || new Error("Rejected promise")));
    } catch (thrown) {
      step(thrown);
    }
  };
  step();
}
