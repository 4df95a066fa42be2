import { readFileSync } from "node:fs";
import { Ajv as Ajv07, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { OPERATIONS, type OperationId } from "./dify-openapi.js";

type Json = Record<string, unknown>;

/** Which operation of a document serves `method path`: a literal segment wins over a parameter. */
function operationFor(paths: string[], path: string): string | undefined {
  const matching = paths.filter((template) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path),
  );
  const parameters = (template: string) => template.split("{").length;
  return matching.sort((a, b) => parameters(a) - parameters(b))[0];
}

// Ours is OpenAPI 3.1 (JSON Schema 2020-12); examples and OpenAPI's own keywords are not for Ajv.
const ours = new Ajv2020({ strict: false, allErrors: true });
formats.default(ours);
const served = new Map<string, Promise<{ document: Json; validators: Map<string, ValidateFunction> }>>();

function servedDocument(baseUrl: string) {
  let document = served.get(baseUrl);
  if (!document) {
    document = fetch(`${baseUrl}/v1/openapi.json`).then(async (response) => {
      const json = (await response.json()) as Json;
      return { document: json, validators: new Map() };
    });
    served.set(baseUrl, document);
  }
  return document;
}

/**
 * Why a response disagrees with the OpenAPI document the server serves: its status is not one the
 * operation documents, or its JSON body does not fit the documented schema. Empty when it agrees.
 */
export async function servedContractProblems(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  body: unknown,
): Promise<string[]> {
  const { document, validators } = await servedDocument(baseUrl);
  const paths = document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
  const template = operationFor(Object.keys(paths), path.replace(/^\/v1/, ""));
  const operation = template && paths[template]?.[method.toLowerCase()];
  if (!operation) return [];
  const response = operation.responses[String(status)];
  if (!response) return [`${method} ${template} answered ${status}, which its document does not list`];
  if (!response.content) return body === "" ? [] : [`${method} ${template} ${status} documents no body`];
  const key = `${template} ${method} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = (response.content as Record<string, { schema: Json }>)["application/json"]!.schema;
    // The document's components ride along, so that `#/components/…` resolves as in the document.
    validate = ours.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  if (!validate(body))
    return (validate.errors ?? []).map((error) => `served schema: ${error.instancePath} ${error.message}`);
  return undocumentedCode(`${method} ${template}`, status, response, body);
}

/** An error's code must be one its operation documents for that status (each documented case is an example). */
function undocumentedCode(operation: string, status: number, response: Json, body: unknown): string[] {
  const code = (body as { code?: unknown } | null)?.code;
  const examples = (response.content as Record<string, { examples?: Record<string, { value?: Json }> }>)[
    "application/json"
  ]?.examples;
  if (status < 400 || typeof code !== "string" || !examples) return [];
  const documented = Object.values(examples).map((example) => example.value?.code);
  return documented.includes(code)
    ? []
    : [
        `${operation} answered ${status} ${code}, which its document does not list (${documented.join(", ")})`,
      ];
}

// Dify's is OpenAPI 3.0: `nullable` is understood by Ajv itself; `url` is not a JSON Schema format.
const dify = new Ajv07({ strict: false, allErrors: true });
formats.default(dify);
dify.addFormat("url", (value: string) => URL.canParse(value));
const extract = JSON.parse(readFileSync(new URL("./dify-openapi-extract.json", import.meta.url), "utf8")) as {
  operations: Record<OperationId, { status: number; schema: Json | null }>;
};
const difyValidators = new Map<OperationId, ValidateFunction>();

/** Why a success body does not fit Dify's published schema for the operation, if Dify has it. */
export function difyContractProblems(method: string, path: string, status: number, body: unknown): string[] {
  const entries = Object.entries(OPERATIONS) as [OperationId, readonly [string, string]][];
  const template = operationFor(
    entries.filter(([, [verb]]) => verb === method.toLowerCase()).map(([, [, route]]) => route),
    path.replace(/^\/v1/, ""),
  );
  const found = entries.find(([, [verb, route]]) => verb === method.toLowerCase() && route === template);
  if (!found || status < 200 || status > 299) return [];
  const [operationId] = found;
  const { schema, status: published } = extract.operations[operationId];
  if (status !== published) return [`${operationId} answered ${status}; Dify's document says ${published}`];
  if (!schema) return body === "" ? [] : [`${operationId}: Dify's document has no body`];
  let validate = difyValidators.get(operationId);
  if (!validate) {
    validate = dify.compile(schema);
    difyValidators.set(operationId, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `Dify's schema: ${error.instancePath} ${error.message}`);
}
