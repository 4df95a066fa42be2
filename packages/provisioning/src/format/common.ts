import { z } from "zod";

/** Ids are UUIDs, kept in lowercase. */
export const id = z.guid().transform((value) => value.toLowerCase());
/** Unix seconds. */
export const timestamp = z.number().int().nonnegative();
export const name = z.string().trim().min(1);

export const processRule = z.strictObject({
  id: id.optional(),
  mode: z.string().min(1),
  rules: z.record(z.string(), z.unknown()).default({}),
});

/** A key in plaintext (`ds-…`, `app-…`), hashed on import, or as exported: `sha256:` and its hex digest. */
export const apiKey = z.string().regex(/^(app-|ds-)[A-Za-z0-9]{16,}$|^sha256:[0-9a-f]{64}$/, {
  error: "must be a key (app-… or ds-… followed by at least 16 letters or digits) or sha256:<64 hex digits>",
});
