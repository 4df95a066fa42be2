import { z } from "zod";
import { errorBody } from "./common-schemas.js";
import { WORKSPACE_ARCHIVED } from "./errors.js";
import type { ErrorCase, Operation } from "./operation.js";

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's), for a request (`input`) or a response (`output`). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return rest;
}

/** Each property of an object schema as an OpenAPI parameter in `where`. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema, "input") as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === "path" || required.includes(name),
    ...(description !== undefined && { description }),
    schema: property,
    ...(property.type === "array" && { style: "form", explode: true }),
  }));
}

/** The errors an operation documents, one response per status, each message an example. */
function errorResponses(errors: ErrorCase[]): Json {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const error of errors) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  return Object.fromEntries(
    [...byStatus].map(([status, cases]) => [
      String(status),
      {
        description: [...new Set(cases.map((error) => error.message))].join(" / "),
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/Error" },
            examples: Object.fromEntries(
              cases.map((error, index) => [`${error.code}${index ? `_${index}` : ""}`, { value: error }]),
            ),
          },
        },
      },
    ]),
  );
}

function operationObject(operation: Operation): Json {
  const { success } = operation;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description && { description: operation.description }),
    security: [{ [operation.key === "app" ? "AppKey" : "KnowledgeKey"]: [] }],
    parameters: [...parameters(operation.params, "path"), ...parameters(operation.query, "query")],
    ...(operation.form && {
      requestBody: {
        required: true,
        content: { "multipart/form-data": { schema: jsonSchema(operation.form.fields, "input") } },
      },
    }),
    ...(operation.body &&
      !operation.form && {
        requestBody: {
          required: !operation.readsBody,
          content: { "application/json": { schema: jsonSchema(operation.body, "input") } },
        },
      }),
    responses: {
      [String(success.status)]: {
        description: success.description,
        ...(success.schema && {
          content: {
            [success.mediaType ?? "application/json"]: {
              schema: jsonSchema(success.schema, "output"),
              ...(success.example !== undefined && { example: success.example }),
            },
          },
        }),
      },
      ...errorResponses([...operation.errors, ...WORKSPACE_ARCHIVED[operation.key]]),
    },
  };
}

/**
 * The OpenAPI 3.1 document of these operations, generated from the schemas the routes parse with;
 * its paths are relative to `serverUrl`.
 */
export function openApiDocument(operations: Operation[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Knowledge Base and Application Service API",
      version: "1.0.0",
      description:
        "Dify's service API: knowledge bases (datasets, documents, metadata, tags) with a knowledge key " +
        "(`ds-…`), and applications (conversation variables, web app settings, app info) with an app key " +
        "(`app-…`). Every error answers `{status, code, message}`.",
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        KnowledgeKey: {
          type: "http",
          scheme: "bearer",
          description: "A knowledge key, `ds-…`: every dataset of one workspace.",
        },
        AppKey: { type: "http", scheme: "bearer", description: "An app key, `app-…`: one app." },
      },
      schemas: { Error: jsonSchema(errorBody, "output") },
    },
  };
}

/** Stands for the server URL in the serialized document, until a request says where it is served. */
const SERVER_URL_MARK = "\u0000server-url";

/**
 * The document as JSON, serialized once, for each place it is served from: `serverUrl` gives its
 * server URL (where the routes are mounted), cheaply, however many places a mount path's
 * parameters make.
 */
export function serializedOpenApiDocument(operations: Operation[]): (serverUrl: string) => string {
  const [head, tail] = JSON.stringify(openApiDocument(operations, SERVER_URL_MARK)).split(
    JSON.stringify(SERVER_URL_MARK),
  );
  return (serverUrl) => `${head}${JSON.stringify(serverUrl)}${tail}`;
}
