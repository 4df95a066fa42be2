import { readFileSync } from "node:fs";
import { UNSTORABLE_NAME, UNSTORABLE_TEXT } from "@service-api/domain";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_COUNT } from "./support/operation-count.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<
    string,
    {
      content?: Record<string, { schema: Record<string, unknown>; example?: unknown; examples?: object }>;
    }
  >;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

let server: TestServer;
let document: Document;
let operations: { method: string; path: string; operation: Operation }[];
beforeAll(async () => {
  server = await startTestServer();
  // No key: the document is public.
  const response = await fetch(`${server.url}/v1/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
});
afterAll(() => server.stop());

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document of all the operations, each with its own id", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids).toHaveLength(OPERATION_COUNT);
    expect(new Set(ids).size).toBe(OPERATION_COUNT);
  });

  it("declares both key kinds as bearer schemes, and each operation takes exactly one", () => {
    expect(document.components.securitySchemes).toMatchObject({
      KnowledgeKey: { type: "http", scheme: "bearer" },
      AppKey: { type: "http", scheme: "bearer" },
    });
    for (const { operation } of operations) {
      expect(operation.security, operation.operationId).toHaveLength(1);
      expect(["KnowledgeKey", "AppKey"]).toContain(Object.keys(operation.security[0]!)[0]);
      // Each of the three 401s the key check answers, in Dify's words.
      const unauthorized = JSON.stringify(operation.responses["401"]);
      for (const message of [
        "Authorization header must be provided and start with 'Bearer'",
        "Authorization scheme must be 'Bearer'",
        "Access token is invalid",
      ])
        expect(unauthorized, operation.operationId).toContain(message);
    }
  });

  it("gives every error response the {status, code, message} schema and examples of its status", () => {
    const error = (document.components as unknown as { schemas: Record<string, { required: string[] }> })
      .schemas.Error;
    expect(error?.required.sort()).toEqual(["code", "message", "status"]);
    for (const { operation } of operations) {
      const statuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      expect(statuses, operation.operationId).toEqual(expect.arrayContaining(["401", "403", "500", "503"]));
      for (const status of statuses) {
        const json = operation.responses[status]!.content?.["application/json"];
        expect(json?.schema, `${operation.operationId} ${status}`).toEqual({
          $ref: "#/components/schemas/Error",
        });
        for (const { value } of Object.values(json?.examples ?? {}) as { value: { status: number } }[])
          expect(value.status).toBe(Number(status));
        expect(Object.keys(json?.examples ?? {}).length).toBeGreaterThan(0);
      }
    }
  });

  it("gives every success with a body a schema and an example that fits it", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const { operation } of operations) {
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))!;
      const json = success.content?.["application/json"];
      if (status === "204") {
        expect(json, operation.operationId).toBeUndefined();
        continue;
      }
      const binary = success.content?.["application/zip"];
      if (binary) {
        expect(binary.schema, operation.operationId).toEqual({ type: "string", format: "binary" });
        continue;
      }
      expect(json?.schema, operation.operationId).toBeDefined();
      expect(json?.example, operation.operationId).toBeDefined();
      const validate = ajv.compile({ ...json!.schema, components: document.components });
      expect(validate(json!.example) ? [] : validate.errors, operation.operationId).toEqual([]);
    }
  });

  it("describes the uploads as multipart forms: the file and the data field", () => {
    for (const [path, method] of [
      ["/datasets/{dataset_id}/document/create-by-file", "post"],
      ["/datasets/{dataset_id}/document/create_by_file", "post"],
      ["/datasets/{dataset_id}/documents/{document_id}", "patch"],
      ["/datasets/{dataset_id}/documents/{document_id}/update-by-file", "post"],
      ["/datasets/{dataset_id}/documents/{document_id}/update_by_file", "post"],
    ] as const) {
      const body = document.paths[path]?.[method]?.requestBody as
        | {
            content: Record<
              string,
              { schema: { properties: Record<string, { type: string; format?: string }> } }
            >;
          }
        | undefined;
      const form = body?.content["multipart/form-data"]?.schema;
      expect(form?.properties.file, `${method} ${path}`).toMatchObject({ type: "string", format: "binary" });
      expect(form?.properties.data, `${method} ${path}`).toMatchObject({ type: "string" });
      expect(Object.keys(body?.content ?? {})).toEqual(["multipart/form-data"]);
    }
  });

  it("documents the 400s for names and values no store can hold, where names and values are stored", () => {
    const messages = (path: string, method: "post" | "patch") =>
      String(
        (document.paths[path]?.[method]?.responses?.["400"] as { description?: string } | undefined)
          ?.description,
      );
    for (const [path, method] of [
      ["/datasets/tags", "post"],
      ["/datasets/tags", "patch"],
      ["/datasets/{dataset_id}/metadata", "post"],
      ["/datasets/{dataset_id}/metadata/{metadata_id}", "patch"],
    ] as const)
      expect(messages(path, method), `${method} ${path}`).toContain(UNSTORABLE_NAME);
    expect(messages("/datasets/{dataset_id}/documents/metadata", "post")).toContain(
      `operation_data.0.metadata_list.0.value: ${UNSTORABLE_TEXT}`,
    );
  });

  it("describes request bodies from the routes' own schemas", () => {
    const create = document.paths["/datasets/tags"]?.post;
    expect(create?.requestBody?.content["application/json"]?.schema).toMatchObject({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    // Checked after the app mode, so optional to the route's parser, but required all the same.
    const update = document.paths["/conversations/{conversation_id}/variables/{variable_id}"]?.put;
    expect(update?.requestBody?.content["application/json"]?.schema).toMatchObject({
      type: "object",
      properties: { user: { type: "string" } },
      required: ["value", "user"],
    });
    const list = document.paths["/conversations/{conversation_id}/variables"]?.get;
    const parameters = list?.parameters ?? [];
    expect(parameters.find((parameter) => parameter.name === "user")?.required).toBe(true);
    expect(parameters.find((parameter) => parameter.name === "last_id")?.required).toBe(false);
  });
});

describe("the README's operation table", () => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

  it("lists every served operation with its route and key kind", () => {
    for (const { method, path, operation } of operations) {
      const key = Object.keys(operation.security[0]!)[0] === "AppKey" ? "app" : "knowledge";
      const route = `${method.toUpperCase()} /v1${path}`;
      const row = readme
        .split("\n")
        .find((line) => line.includes(`| \`${route}\``) || line.includes(`| \`${route}?`));
      expect(row, `README has no row for ${route}`).toBeDefined();
      expect(row, route).toMatch(new RegExp(`\\| ${key} \\(`));
    }
  });
});
