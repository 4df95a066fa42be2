import { InvalidParamError } from "./errors.js";

/** A page of a list, as asked: 1-based `page`, `limit` items. */
export interface PageRequest {
  page: number;
  limit: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const DIGITS = /^\d+$/;

const LIMIT_REFUSED = "limit: must be an integer from 1 to 100.";
const PAGE_REFUSED = "page: must be an integer of at least 1.";
const PAGE_TOO_FAR = `page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`;

/** A query integer: decimal digits only (`+1`, `1.0`, ` 1` are not); undefined when absent. */
function wholeNumber(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  return typeof value === "string" && DIGITS.test(value) ? Number(value) : null;
}

/** `limit` as a number: an integer from 1 to 100, else refused. */
function checkedLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new InvalidParamError("limit", LIMIT_REFUSED);
  return limit;
}

/** `page` as a number: an integer of at least 1, at most the largest a JSON answer holds exactly. */
function checkedPage(page: unknown): number {
  if (typeof page !== "number" || !Number.isInteger(page) || page < 1)
    throw new InvalidParamError("page", PAGE_REFUSED);
  if (!Number.isSafeInteger(page)) throw new InvalidParamError("page", PAGE_TOO_FAR);
  return page;
}

/** `limit`: 1–100, default 20. */
export function parseLimit(value: string | undefined): number {
  return checkedLimit(wholeNumber(value) ?? (value === undefined ? DEFAULT_LIMIT : null));
}

const CAPPED_LIMIT_REFUSED = "limit: must be an integer of at least 1.";

/**
 * `limit` of a chunks list (Dify PR #41776): at least 1, default 20, and one above 100 served as
 * 100 (and echoed so), not refused.
 */
export function parseCappedLimit(value: string | undefined): number {
  const limit = wholeNumber(value) ?? (value === undefined ? DEFAULT_LIMIT : null);
  if (limit === null || limit < 1) throw new InvalidParamError("limit", CAPPED_LIMIT_REFUSED);
  return Math.min(limit, MAX_LIMIT);
}

/** `page`: at least 1, default 1; at most the largest integer a JSON answer holds exactly. */
export function parsePage(value: string | undefined): number {
  return checkedPage(wholeNumber(value) ?? (value === undefined ? 1 : null));
}

/**
 * A page request as a direct caller gives it, checked as the query's `page` then `limit` are: no
 * defaults, and the same refusals.
 */
export function ensurePageRequest(request: unknown): PageRequest {
  const { page, limit } = (typeof request === "object" && request !== null ? request : {}) as Record<
    keyof PageRequest,
    unknown
  >;
  return { page: checkedPage(page), limit: checkedLimit(limit) };
}

/** A page of results: the items, every match's count, and whether a later page holds more. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
}

export function pageOf<T>(items: T[], total: number, request: PageRequest): Page<T> {
  return { items, total, ...request, hasMore: request.page * request.limit < total };
}

/**
 * The number of items before a page; past any list a store can hold, held at the largest exact
 * integer, which every store binds as one (a page that far is empty all the same).
 */
export const offsetOf = ({ page, limit }: PageRequest): number =>
  Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER);
