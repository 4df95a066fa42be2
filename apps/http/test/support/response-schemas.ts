import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import formats from "ajv-formats";
import type { OperationId } from "./dify-openapi.js";

type Extract = {
  operations: Record<OperationId, { status: number; schema: Record<string, unknown> | null }>;
};
const extract: Extract = JSON.parse(
  readFileSync(new URL("./dify-openapi-5ops.json", import.meta.url), "utf8"),
);

// The document is OpenAPI 3.0: `nullable` is understood by Ajv itself; `url` is not a JSON Schema format.
const ajv = new Ajv({ strict: false, allErrors: true });
// ajv-formats is CommonJS: under Node's ESM its plugin is the `default` of module.exports.
formats.default(ajv);
ajv.addFormat("url", (value: string) => URL.canParse(value));

const validators = new Map<OperationId, ValidateFunction>();

/** Validates a success body against the operation's published response schema; returns the errors. */
export function responseSchemaErrors(operationId: OperationId, body: unknown): string[] {
  const { schema } = extract.operations[operationId];
  if (!schema) return body === "" || body === undefined ? [] : ["the operation has no response body"];
  let validate = validators.get(operationId);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(operationId, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** The property names the published schema lists for the operation's body. */
export function schemaProperties(operationId: OperationId): string[] {
  const schema = extract.operations[operationId].schema as { properties?: Record<string, unknown> } | null;
  return Object.keys(schema?.properties ?? {});
}

export function successStatusOf(operationId: OperationId): number {
  return extract.operations[operationId].status;
}
