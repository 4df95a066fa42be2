import { canonicalUuid, InvalidParamError, NO_ID } from "@service-api/domain";
import type { z } from "zod";

// What an id that is not a UUID becomes (`NO_ID`, the domain's): every stored id is a UUID, so such an
// id names nothing, and the empty string is one every store can look up.
export { NO_ID };

/** An id from a path or body as stored: a UUID in its canonical lowercase, hyphenated form, else `NO_ID`. */
export function pathId(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
  return canonicalUuid(text) ?? NO_ID;
}

/** The first value of a query parameter, as Flask's `args.get` reads it. */
export function firstQueryValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : undefined;
}

/** Parses a request body with a zod schema; a mismatch is a 400 `invalid_param` naming the field. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "body";
  throw new InvalidParamError(field, `${field}: ${issue?.message ?? "invalid"}`);
}
