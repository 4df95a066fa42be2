import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractOperations } from "./support/dify-openapi.js";

const published = fileURLToPath(
  new URL("../../../../shared/spec/dify-openapi/openapi_service.json", import.meta.url),
);
const vendored = new URL("./support/dify-openapi-5ops.json", import.meta.url);

describe("the vendored extract of Dify's OpenAPI document", () => {
  // ../shared sits beside the repository in CI and on developer machines; a bare clone has none,
  // and then only the vendored copy is used.
  it.skipIf(!existsSync(published))("matches the published document in ../shared", () => {
    const spec = JSON.parse(readFileSync(published, "utf8"));
    const extract = JSON.parse(readFileSync(vendored, "utf8"));
    expect(extract.operations).toEqual(JSON.parse(JSON.stringify(extractOperations(spec))));
  });
});
