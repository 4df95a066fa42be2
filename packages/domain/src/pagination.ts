import { InvalidParamError } from "./errors.js";

/** A page of a list, as asked: 1-based `page`, `limit` items. */
export interface PageRequest {
  page: number;
  limit: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const DIGITS = /^\d+$/;

/** A query integer: decimal digits only (`+1`, `1.0`, ` 1` are not); undefined when absent. */
function wholeNumber(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  return DIGITS.test(value) ? Number(value) : null;
}

/** `limit`: 1–100, default 20. */
export function parseLimit(value: string | undefined): number {
  const limit = wholeNumber(value) ?? (value === undefined ? DEFAULT_LIMIT : null);
  if (limit === null || limit < 1 || limit > MAX_LIMIT)
    throw new InvalidParamError("limit", "limit: must be an integer from 1 to 100.");
  return limit;
}

/** `page`: at least 1, default 1; at most the largest integer a JSON answer holds exactly. */
export function parsePage(value: string | undefined): number {
  const page = wholeNumber(value) ?? (value === undefined ? 1 : null);
  if (page === null || page < 1)
    throw new InvalidParamError("page", "page: must be an integer of at least 1.");
  if (!Number.isSafeInteger(page))
    throw new InvalidParamError("page", `page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`);
  return page;
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
