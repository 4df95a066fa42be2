import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit, parsePage } from "@service-api/domain";
import { z } from "zod";
import { pathId } from "../http/params.js";

const ID_SCHEMAS = new WeakSet<z.ZodType>();

/** An id: a UUID, in any case (canonical lowercase); anything else names nothing. */
export const id = (description: string) => {
  const schema = z
    .string()
    .transform((value) => pathId(value))
    .meta({ description, format: "uuid" });
  ID_SCHEMAS.add(schema);
  return schema;
};

/** Whether `schema` is one `id` made: it reads a string as `pathId` does, and nothing else. */
export const isIdSchema = (schema: z.ZodType) => ID_SCHEMAS.has(schema);

/**
 * A JSON number, however large: `1e400` is valid JSON that parses as Infinity, which zod's
 * `number()` refuses as no number at all. Taken as a number, it meets the rule that says what is
 * wrong with it (not finite). Every number a body holds is read with this.
 */
export const jsonNumber = z
  .custom<number>((value) => typeof value === "number", { error: "must be a number." })
  .meta({ type: "number" });

/** The `{status, code, message}` body of every error. */
export const errorBody = z
  .object({
    status: z.number().int().meta({ description: "The HTTP status." }),
    code: z
      .string()
      .meta({ description: "What went wrong, as a stable word: `not_found`, `invalid_param`…" }),
    message: z.string().meta({ description: "What went wrong, for people." }),
  })
  .meta({ description: "Every error's body." });

/** `page` and `limit`, read by the domain's rules as the query is parsed (after a path's dataset). */
export const pageQuery = {
  page: z
    .string()
    .optional()
    .meta({ type: "integer", minimum: 1, default: 1, description: "Page, from 1." })
    .transform(parsePage),
  limit: z
    .string()
    .optional()
    .meta({
      type: "integer",
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: "Items per page.",
    })
    .transform(parseLimit),
};

/** `{data, has_more, limit, total, page}` around items of `item`. */
export const pagedList = (item: z.ZodType, description: string) =>
  z.object({
    data: z.array(item).meta({ description }),
    has_more: z.boolean().meta({ description: "Whether a later page holds more." }),
    limit: z.number().int(),
    total: z.number().int().meta({ description: "Matches in all." }),
    page: z.number().int(),
  });

export const success = z.object({ result: z.literal("success") });
