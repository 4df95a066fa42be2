import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importFormatJsonSchema } from "./json-schema.js";

const committed = new URL("../../import-format.schema.json", import.meta.url);

describe("import-format.schema.json", () => {
  it("is the schema the importer validates with (pnpm write-json-schema regenerates it)", () => {
    const generated = `${JSON.stringify(importFormatJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_JSON_SCHEMA === "1") writeFileSync(committed, generated);
    expect(readFileSync(committed, "utf8")).toBe(generated);
  });
});
