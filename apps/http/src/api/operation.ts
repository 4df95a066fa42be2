import type { App, Dataset, SentFile } from "@service-api/domain";
import type { Request, Response } from "express";
import type { z } from "zod";

export type KeyKind = "knowledge" | "app";
export type Method = "get" | "post" | "put" | "patch" | "delete";

/** An error an operation may answer, as documented: its status, code and a message it gives. */
export interface ErrorCase {
  status: number;
  code: string;
  message: string;
}

/** What a handler gets: the request's parts, parsed, and what the key granted. */
export interface HandlerInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  /** The knowledge key's workspace (knowledge operations). */
  workspaceId: string;
  /** The app key's app (app operations). */
  app: App;
  /**
   * The dataset named in the path, checked: set for operations with `dataset: true` only. Undefined
   * for `dataset: "in-use-case"` (the use case reads and checks it) and for every other operation.
   */
  dataset: Dataset;
  /** A form operation's files, every file part in order (`form`); empty for every other. */
  files: SentFile[];
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * One operation of the API, declared once: the route serves it from this, checking in the
 * reference's order (key, the path's dataset, path parameters, query or body), and the OpenAPI
 * document describes it from the same schemas.
 */
export interface Operation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
> {
  /** Dify's operationId where Dify has the operation. */
  operationId: string;
  method: Method;
  /** OpenAPI's template, relative to `/v1`: `/datasets/{dataset_id}/tags`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  key: KeyKind;
  /**
   * Checks the dataset in the path (404, 403) before anything of the request but the key. With
   * `"in-use-case"` the use case checks it, which saves a round trip: it reads the dataset with what
   * else it reads, or writes checking it (`ServedTo`) and reads it only when refused. A request that
   * fails to parse has its dataset checked before its error is answered, so the order of the checks
   * holds either way. Such an operation reads its query in its schema (`.transform`), not in its
   * handler.
   */
  dataset?: boolean | "in-use-case";
  params?: P;
  query?: Q;
  /**
   * The body's size limit and what a body over it is answered; default 1 MB, 413
   * `request_entity_too_large`. Documents by text take as much as a file upload.
   */
  bodyLimit?: { bytes: number; tooLarge: ErrorCase };
  /**
   * The body is a `multipart/form-data` upload (instead of JSON): a file within `fileBytes` (over
   * it, `tooLarge`) and a `data` field holding a JSON object, which `body` parses. `fields`
   * describes the form for the OpenAPI document.
   */
  form?: { fileBytes: number; tooLarge: ErrorCase; fields: Schema };
  /** Whether this request has a body to read; default: when the operation has a body schema. */
  readsBody?: (req: Request) => boolean;
  /** Query parameters whose empty value is a value (`metadata=`); for the others empty is absent. */
  emptyQueryCounts?: string[];
  body?: B;
  success: {
    status: 200 | 201 | 204;
    description: string;
    schema?: Schema;
    example?: unknown;
    /** The media type of a body that is not JSON (`application/zip`), which `respond` writes. */
    mediaType?: string;
  };
  /** Writes what `handle` returned, for a body that is not JSON; default: the result as JSON. */
  respond?(res: Response, result: unknown): void;
  errors: ErrorCase[];
  handle(input: HandlerInput<Out<P>, Out<Q>, Out<B>>): Promise<unknown>;
}

/** Declares an operation, inferring the handler's input from its schemas. */
export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(operation: Operation<P, Q, B>): Operation {
  return operation as unknown as Operation;
}
