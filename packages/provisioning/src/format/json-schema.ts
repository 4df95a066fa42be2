import { z } from "zod";
import { importFileSchema } from "./import-file-schema.js";

/** The JSON Schema of the import format, generated from the schema that validates it. */
export function importFormatJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(importFileSchema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }),
    $id: "urn:service-api:import-format:v1",
    title: "service-api import format, version 1",
  };
}
