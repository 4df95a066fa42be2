import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractOperations } from "./support/dify-openapi.js";

const published = fileURLToPath(
  new URL("../../../../shared/spec/dify-openapi/openapi_service.json", import.meta.url),
);
const vendored = new URL("./support/dify-openapi-extract.json", import.meta.url);

describe("the vendored extract of Dify's OpenAPI document", () => {
  // ../shared sits beside the repository in CI and on developer machines; a bare clone has none,
  // and then only the vendored copy is used.
  it.skipIf(!existsSync(published))("matches the published document in ../shared", () => {
    const spec = JSON.parse(readFileSync(published, "utf8"));
    const extract = JSON.parse(readFileSync(vendored, "utf8"));
    const operations = JSON.parse(JSON.stringify(extractOperations(spec)));
    if (process.env.UPDATE_DIFY_EXTRACT === "1")
      writeFileSync(vendored, `${JSON.stringify({ ...extract, operations }, null, 2)}\n`);
    expect(JSON.parse(readFileSync(vendored, "utf8")).operations).toEqual(operations);
  });
});
