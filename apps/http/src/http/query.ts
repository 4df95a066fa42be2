import { type ParsedUrlQuery, parse } from "node:querystring";
import type { Request } from "express";

/**
 * The request's query parameters as Flask's `request.args` holds them: every pair, however many
 * (`req.query` stops at 1,000 with Express's parsers, so a filter after them was lost), under its
 * name as written (`tag_ids[]` is a name of its own, as in Flask, whatever parser a host chose).
 * A name given once is a string, a repeated one a list.
 */
export function queryOf(req: Request): ParsedUrlQuery {
  const at = req.url.indexOf("?");
  return at === -1 ? {} : parse(req.url.slice(at + 1), "&", "=", { maxKeys: 0 });
}
