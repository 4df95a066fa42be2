import { BLANK_NAME, isBlank } from "@service-api/domain";
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

export const processRule = z.strictObject({
  id: id.optional(),
  mode: z.string().min(1),
  rules: z.record(z.string(), z.unknown()).default({}),
});

/** A key in plaintext (`ds-…`, `app-…`), hashed on import, or as exported: `sha256:` and its hex digest. */
export const apiKey = z.string().regex(/^(app-|ds-)[A-Za-z0-9]{16,}$|^sha256:[0-9a-f]{64}$/, {
  error: "must be a key (app-… or ds-… followed by at least 16 letters or digits) or sha256:<64 hex digits>",
});
