import type { OpenDataset } from "@service-api/application";
import { InvalidParamError } from "@service-api/domain";
import type { Request, RequestHandler, Response } from "express";
import type { DependencyContainer } from "tsyringe";
import { z } from "zod";
import { appOf, requireAppKey, requireDatasetKey, workspaceOf } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { HttpError } from "../http/http-error.js";
import { jsonBody, jsonBodyWithin } from "../http/json-body.js";
import { multipartForm, type UploadForm } from "../http/multipart-form.js";
import { parseBody, pathId } from "../http/params.js";
import { queryOf } from "../http/query.js";
import { sendJson } from "../http/send-json.js";
import { isIdSchema } from "./common-schemas.js";
import type { Operation } from "./operation.js";
import { answeredMethods, type PathRoute } from "./path-routes.js";

/** A path's parameter, `{name}`. */
const PATH_PARAM = /\{(\w+)\}/g;

/** `/datasets/{dataset_id}` → `/datasets/:dataset_id`. */
export const expressPath = (path: string) => path.replace(PATH_PARAM, ":$1");

/**
 * A path's place among routes: literal segments come before parameters where paths overlap
 * (`/datasets/tags` before `/datasets/{dataset_id}`), since the first route that matches serves
 * the path and a literal is never an id. Paths of different lengths never overlap.
 */
const routeOrder = (path: string) => {
  const segments = path.split("/");
  return `${String(segments.length).padStart(3, "0")}:${segments.map((segment) => (segment.startsWith("{") ? 1 : 0)).join("")}`;
};

const unwrap = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodDefault
    ? unwrap(schema.unwrap() as z.ZodType)
    : schema;

/**
 * The query as Flask reads it: a repeated parameter counts by its first value, and an empty one is
 * absent (`keyword=&keyword=x` has no keyword); an array parameter takes every non-empty value.
 * What the schema says of each name is read once, not per request.
 */
function queryReader(operation: Operation): (req: Request) => Record<string, unknown> {
  const { query: schema, emptyQueryCounts = [] } = operation;
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  const arrays = new Set(Object.keys(shape).filter((name) => unwrap(shape[name]!) instanceof z.ZodArray));
  const counts = (name: string, value: unknown): value is string =>
    typeof value === "string" && (value !== "" || emptyQueryCounts.includes(name));
  return (req) => {
    const query: Record<string, unknown> = {};
    const parsed = queryOf(req);
    for (const name of Object.keys(parsed)) {
      const raw = parsed[name];
      const values = Array.isArray(raw) ? raw : [raw];
      if (arrays.has(name)) {
        const present = values.filter((value) => counts(name, value));
        if (present.length > 0) query[name] = present;
      } else if (counts(name, values[0])) query[name] = values[0];
    }
    return query;
  };
}

/** The `{name}`s of a path, in order. */
const pathParams = (path: string) => [...path.matchAll(PATH_PARAM)].map((match) => match[1]!);

/**
 * The path parameters as the operation's schema reads them. Where the schema is a plain object of
 * `id`s, one for each of the path's parameters (most paths), each is read with `pathId`, as the
 * schema would, without running zod on every request.
 */
function paramsReader(operation: Operation): (params: Request["params"]) => unknown {
  const schema = operation.params;
  if (!schema) return () => undefined;
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
  const names = shape ? Object.keys(shape) : [];
  const plainIds =
    shape !== undefined &&
    !schema.def.checks?.length &&
    names.every((name) => isIdSchema(shape[name]!)) &&
    [...names].sort().join() === pathParams(operation.path).sort().join();
  if (!plainIds) return (params) => parseBody(schema, params);
  return (params) => {
    const read: Record<string, string> = {};
    for (const name of names) read[name] = pathId(params[name]);
    return read;
  };
}

const readsBody = (operation: Operation, req: Request) => operation.readsBody?.(req) ?? true;

/** A form's `data` field: a JSON object (absent, an empty one), else a 400 naming it. */
function formData(form: UploadForm): unknown {
  const data = form.fields.data;
  if (data === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidParamError("data", "data: must be a JSON object.");
  return value;
}

/** The body as the operation's schema reads it: JSON, or a form's `data`. */
function bodyOf(operation: Operation, req: Request): unknown {
  if (!operation.body || !readsBody(operation, req)) return undefined;
  return parseBody(operation.body, operation.form ? formData(req.body as UploadForm) : req.body);
}

function handlerOf(operation: Operation, openDataset: OpenDataset): RequestHandler {
  const readQuery = queryReader(operation);
  const parse = (req: Request, res: Response) => ({
    params: res.locals.params,
    query: operation.query ? parseBody(operation.query, readQuery(req)) : undefined,
    body: bodyOf(operation, req),
    workspaceId: operation.key === "knowledge" ? workspaceOf(res) : (undefined as never),
    app: operation.key === "app" ? appOf(res) : (undefined as never),
    dataset: res.locals.dataset,
    files: operation.form ? (req.body as UploadForm).files : [],
  });
  const checksDatasetFirst = operation.dataset === "in-use-case";
  return async (req: Request, res: Response) => {
    let input: ReturnType<typeof parse>;
    try {
      input = parse(req, res);
    } catch (error) {
      // A request the use case would refuse has the path's dataset checked first: a 404 or 403 wins.
      if (checksDatasetFirst) await checkDataset(openDataset, req, res);
      throw error;
    }
    const result = await operation.handle(input);
    if (operation.respond) operation.respond(res, result);
    else if (operation.success.status === 204) res.status(204).end();
    else sendJson(res, result, operation.success.status);
  };
}

const checkDataset = (openDataset: OpenDataset, req: Request, res: Response) =>
  openDataset.execute({ workspaceId: workspaceOf(res), datasetId: pathId(req.params.dataset_id) });

/** `step`, but an error it passes on has the path's dataset checked first. */
const stepAfterDataset =
  (step: RequestHandler, openDataset: OpenDataset): RequestHandler =>
  (req, res, next) => {
    const after = (error?: unknown) => {
      if (error === undefined || error === "route" || error === "router") return next(error);
      checkDataset(openDataset, req, res).then(() => next(error), next);
    };
    try {
      // A step that returns no promise (most do) costs no promise here either.
      const returned: unknown = step(req, res, after);
      if (returned instanceof Promise) returned.catch(after);
    } catch (error) {
      after(error);
    }
  };

/** What runs before the handler, in the reference's order: key, the path's dataset, path parameters, body. */
function pipelineOf(
  operation: Operation,
  container: DependencyContainer,
  openDataset: OpenDataset,
): RequestHandler[] {
  const key = operation.key === "app" ? requireAppKey(container) : requireDatasetKey(container);
  const steps: RequestHandler[] = [];
  if (operation.dataset === true) {
    steps.push(async (req, res, next) => {
      res.locals.dataset = await checkDataset(openDataset, req, res);
      next();
    });
  }
  const readParams = paramsReader(operation);
  steps.push((req, res, next) => {
    res.locals.params = readParams(req.params);
    next();
  });
  if (operation.form) {
    const { fileBytes, tooLarge } = operation.form;
    steps.push(
      multipartForm(
        fileBytes,
        () => new HttpError(tooLarge.status, tooLarge.code as never, tooLarge.message),
      ),
    );
  } else if (operation.body) {
    const ifRead =
      (step: RequestHandler): RequestHandler =>
      (req, res, next) =>
        readsBody(operation, req) ? step(req, res, next) : next();
    const body = operation.bodyLimit ? jsonBodyWithin(operation.bodyLimit) : jsonBody;
    steps.push(...body.map(ifRead));
  }
  const checked =
    operation.dataset === "in-use-case" ? steps.map((step) => stepAfterDataset(step, openDataset)) : steps;
  return [key, ...checked];
}

/**
 * Every operation's route, at `prefix` + its path; a path's other methods answer 405 with `Allow`.
 * Served by one handler that matches the path itself (`pathRoutes`): Express's router would try
 * each route's regular expression in turn and pass every request through a layer per route and per
 * handler.
 */
export function operationRoutes(
  container: DependencyContainer,
  operations: Operation[],
  openDataset: OpenDataset,
  prefix = "",
): PathRoute[] {
  const byPath = new Map<string, Operation[]>();
  for (const operation of operations)
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const paths = [...byPath.keys()].sort((a, b) =>
    routeOrder(a) < routeOrder(b) ? -1 : routeOrder(a) > routeOrder(b) ? 1 : 0,
  );
  return paths.map((path): PathRoute => {
    const served = byPath.get(path)!;
    const methods = served.map((operation) => operation.method.toUpperCase());
    return {
      path: `${prefix}${path}`,
      label: expressPath(`${prefix}${path}`),
      methods: new Map(
        served.map((operation) => [
          operation.method.toUpperCase(),
          [...pipelineOf(operation, container, openDataset), handlerOf(operation, openDataset)],
        ]),
      ),
      otherMethods: methodNotAllowed(answeredMethods(methods)),
    };
  });
}
