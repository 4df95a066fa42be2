import { InvalidParamError, NO_ID } from "@service-api/domain";
import type { z } from "zod";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** The stored form itself: most ids arrive so, and need no rewriting. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// What an id that is not a UUID becomes (`NO_ID`, the domain's): every stored id is a UUID, so such an
// id names nothing, and the empty string is one every store can look up.
export { NO_ID };

/** An id from a path or body as stored: a UUID in its canonical lowercase, hyphenated form, else `NO_ID`. */
export function pathId(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
  if (CANONICAL_UUID.test(text)) return text;
  if (!UUID.test(text)) return NO_ID;
  const hex = text.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
