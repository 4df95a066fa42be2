import { readFileSync } from "node:fs";
import type { OperationId } from "./dify-openapi.js";

/** Success bodies are checked against these schemas by every `call` (see contracts.ts). */
type Extract = {
  operations: Record<OperationId, { status: number; schema: Record<string, unknown> | null }>;
};
const extract: Extract = JSON.parse(
  readFileSync(new URL("./dify-openapi-extract.json", import.meta.url), "utf8"),
);

/** The property names the published schema lists for the operation's body. */
export function schemaProperties(operationId: OperationId): string[] {
  const schema = extract.operations[operationId].schema as { properties?: Record<string, unknown> } | null;
  return Object.keys(schema?.properties ?? {});
}

export function successStatusOf(operationId: OperationId): number {
  return extract.operations[operationId].status;
}
