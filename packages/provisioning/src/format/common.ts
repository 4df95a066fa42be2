import { BLANK_NAME, isBlank, SEARCH_METHODS, TOP_K_MAX, TOP_K_MIN } from "@service-api/domain";
import { z } from "zod";

/** Ids are UUIDs, kept in lowercase. */
export const id = z.guid().transform((value) => value.toLowerCase());
/** Unix seconds. */
export const timestamp = z.number().int().nonnegative();

const NAME_NOT_BLANK = BLANK_NAME.replace(/^name: /, "");

/**
 * A name, kept exactly as written: the API stores names as sent (no trimming), so `" sp "` and
 * `"sp"` are two names. Blank names are refused, as the API refuses them; what else a kind of name
 * must be (a tag's length, a metadata field's built-in names) is the domain's rule for that kind,
 * checked with the rest of the file.
 */
export const name = z
  .string()
  .min(1, { error: NAME_NOT_BLANK, abort: true })
  .refine((text) => !isBlank(text), { error: NAME_NOT_BLANK });

/** The leading character of an escaped key: never one of a storable name (`isStorableText`). */
const ESCAPE = "\u0000";

/** Whether zod's record would mishandle the key as it is: it skips `__proto__`. */
const needsEscape = (key: string) => key === "__proto__" || key.startsWith(ESCAPE);

/** `__proto__` and keys already escaped get one more {@link ESCAPE}: one key for one key. */
function escapeKeys(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  if (!Object.keys(input).some(needsEscape)) return input;
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [needsEscape(key) ? `${ESCAPE}${key}` : key, value]),
  );
}

const unescapeKey = (key: string) => (key.startsWith(ESCAPE) ? key.slice(ESCAPE.length) : key);

/** The keys as written: own properties (`Object.fromEntries`), so `__proto__` stays a key. */
function unescapeKeys<Value>(record: Record<string, Value>): Record<string, Value> {
  if (!Object.keys(record).some((key) => key.startsWith(ESCAPE))) return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [unescapeKey(key), value]));
}

/** Issues about an escaped key are about the key as written. */
function unescapeIssuePaths(payload: { issues: { path?: PropertyKey[] }[] }): void {
  for (const issue of payload.issues) {
    const [first] = issue.path ?? [];
    if (typeof first === "string" && first.startsWith(ESCAPE)) issue.path![0] = unescapeKey(first);
  }
}

/**
 * A JSON object of any keys, each value a `value`: `z.record(z.string(), value)`, except that a key
 * named `__proto__` is kept (an own property), validated like any other, where zod's record drops it
 * silently. Any string names a metadata field, and an export writes what was stored. Give it a
 * default with `.prefault`: the JSON Schema (`io: "input"`) leaves out a `.default` of a transform.
 */
export function recordOf<Value extends z.ZodType>(value: Value) {
  return z
    .preprocess<unknown, z.ZodRecord<z.ZodString, Value>, Record<string, z.input<Value>>>(
      escapeKeys,
      z.record(z.string(), value),
    )
    .superRefine((_, context) => unescapeIssuePaths(context), { when: () => true })
    .transform(unescapeKeys);
}

export const processRule = z.strictObject({
  id: id.optional(),
  mode: z.string().min(1),
  rules: recordOf(z.unknown()).prefault({}),
});

/** A dataset's retrieval model as the API stores it (Dify's shape); what a request may leave out, filled. */
export const retrievalModel = z.strictObject({
  search_method: z.enum(SEARCH_METHODS),
  reranking_enable: z.boolean(),
  reranking_model: z
    .strictObject({ reranking_provider_name: z.string(), reranking_model_name: z.string() })
    .default({ reranking_provider_name: "", reranking_model_name: "" }),
  reranking_mode: z.string().nullable().default(null),
  top_k: z.number().int().min(TOP_K_MIN).max(TOP_K_MAX),
  score_threshold_enabled: z.boolean(),
  score_threshold: z.number().nullable().default(null),
  weights: recordOf(z.unknown()).nullable().default(null),
  metadata_filtering_conditions: recordOf(z.unknown()).nullable().optional(),
});

/** A key in plaintext (`ds-…`, `app-…`), hashed on import, or as exported: `sha256:` and its hex digest. */
export const apiKey = z.string().regex(/^(app-|ds-)[A-Za-z0-9]{16,}$|^sha256:[0-9a-f]{64}$/, {
  error: "must be a key (app-… or ds-… followed by at least 16 letters or digits) or sha256:<64 hex digits>",
});
