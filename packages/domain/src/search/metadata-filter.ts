import { InvalidParamError } from "../errors.js";
import { BUILT_IN_FIELDS, type MetadataField } from "../metadata.js";

/*
 * `metadata_filtering_conditions` as Dify reads them (reference-knowledge §4.5), with its bugs
 * fixed: `in` and `empty` work, `before` and `after` compare instants, a value a numeric operator
 * cannot read is a 400 instead of a database error, a name the dataset has no field of matches
 * nothing. Read here into a filter the store applies in its query.
 */

export const COMPARISON_OPERATORS = [
  "contains",
  "not contains",
  "start with",
  "end with",
  "is",
  "is not",
  "empty",
  "not empty",
  "in",
  "not in",
  "=",
  "≠",
  ">",
  "<",
  "≥",
  "≤",
  "before",
  "after",
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** At most this many conditions in one filter. */
export const MAX_FILTER_CONDITIONS = 100;

export type BuiltInFieldName = (typeof BUILT_IN_FIELDS)[number]["name"];

/** What a condition reads: a field's value, or a built-in field of the document. */
export type FilterTarget = { kind: "field"; fieldId: string } | { kind: "builtin"; name: BuiltInFieldName };

/** How it tests it. Text compares as text (case-sensitive), numbers and instants as numbers. */
export type FilterTest =
  | {
      kind: "text";
      operator: "contains" | "not contains" | "start with" | "end with" | "=" | "≠";
      value: string;
    }
  | { kind: "number"; operator: "=" | "≠" | "<" | ">" | "≤" | "≥"; value: number }
  | { kind: "in"; negated: boolean; values: string[] }
  | { kind: "present"; negated: boolean };

export type FilterCondition =
  | { kind: "test"; target: FilterTarget; test: FilterTest }
  | { kind: "never" }
  | { kind: "always" };

/** The documents a retrieval searches: those every (`and`) or any (`or`) condition holds for. */
export interface DocumentFilter {
  logic: "and" | "or";
  conditions: FilterCondition[];
}

const FIELD = "metadata_filtering_conditions";
const refuse = (message: string): never => {
  throw new InvalidParamError(FIELD, `${FIELD}: ${message}`);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Text that holds a number: digits, a point, an exponent, spaces around; at most 200 characters
 * and a two-digit exponent, so that every store reads it as a finite double (as values are read).
 */
export const NUMERIC_TEXT = /^(?=.{1,200}$)\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,2})?\s*$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function numberOf(value: unknown, operator: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return Number(value);
  return refuse(`"${operator}" needs a number.`);
}

/** An instant: Unix seconds, or UTC `YYYY-MM-DD HH:MM:SS` as the built-in dates show it. */
function instantOf(value: unknown, operator: string): number {
  const date = typeof value === "string" ? DATE_TIME.exec(value) : null;
  if (!date) {
    if (typeof value === "number" || (typeof value === "string" && NUMERIC_TEXT.test(value)))
      return numberOf(value, operator);
    return refuse(`"${operator}" needs Unix seconds or a "YYYY-MM-DD HH:MM:SS" time.`);
  }
  const [, year, month, day, hour, minute, second] = date.map(Number);
  const time = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const back = new Date(time);
  if (back.getUTCDate() !== day || back.getUTCMonth() !== month! - 1) refuse(`"${value}" is no date.`);
  return time / 1000;
}

function textOf(value: unknown, operator: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return refuse(`"${operator}" needs text or a number.`);
}

/** `in`'s values: text split on commas and trimmed; a list's items (nulls left out) as text. */
function valuesOf(value: unknown): string[] {
  if (typeof value === "string") return value.split(",").map((part) => part.trim());
  if (Array.isArray(value))
    return value.filter((item) => item !== null && item !== undefined).map((item) => String(item));
  return [String(value)];
}

function testOf(operator: ComparisonOperator, value: unknown): FilterTest {
  switch (operator) {
    case "contains":
    case "not contains":
    case "start with":
    case "end with":
      return { kind: "text", operator, value: textOf(value, operator) };
    case "is":
    case "=":
    case "is not":
    case "≠": {
      const equal = operator === "is" || operator === "=";
      return typeof value === "number"
        ? { kind: "number", operator: equal ? "=" : "≠", value: numberOf(value, operator) }
        : { kind: "text", operator: equal ? "=" : "≠", value: textOf(value, operator) };
    }
    case ">":
    case "<":
    case "≥":
    case "≤":
      return { kind: "number", operator, value: numberOf(value, operator) };
    case "before":
    case "after":
      return {
        kind: "number",
        operator: operator === "before" ? "<" : ">",
        value: instantOf(value, operator),
      };
    case "in":
    case "not in":
      return { kind: "in", negated: operator === "not in", values: valuesOf(value) };
    case "empty":
    case "not empty":
      return { kind: "present", negated: operator === "empty" };
  }
}

const BUILT_IN_NAMES: ReadonlySet<string> = new Set(BUILT_IN_FIELDS.map((field) => field.name));

function conditionOf(
  raw: unknown,
  fields: ReadonlyMap<string, MetadataField>,
  builtInEnabled: boolean,
): FilterCondition | undefined {
  if (!isRecord(raw)) return refuse("each condition must be an object.");
  const { name, comparison_operator: operator, value } = raw;
  if (typeof name !== "string") return refuse("a condition's name must be text.");
  if (typeof operator !== "string" || !(COMPARISON_OPERATORS as readonly string[]).includes(operator))
    return refuse(`unknown comparison operator ${JSON.stringify(operator)}.`);
  const known = operator as ComparisonOperator;
  // Dify skips a condition without a value, but for the two that need none.
  if ((value === null || value === undefined) && known !== "empty" && known !== "not empty") return undefined;
  const test = testOf(known, value);
  if (test.kind === "in" && test.values.length === 0) return { kind: test.negated ? "always" : "never" };
  const field = fields.get(name);
  if (field) return { kind: "test", target: { kind: "field", fieldId: field.id }, test };
  if (builtInEnabled && BUILT_IN_NAMES.has(name))
    return { kind: "test", target: { kind: "builtin", name: name as BuiltInFieldName }, test };
  return { kind: "never" };
}

/**
 * The filter a retrieval's `metadata_filtering_conditions` asks for, over the dataset's fields
 * (and its built-in ones while they are shown); undefined for none. A missing
 * `logical_operator` is `and`, an explicit null `or` (Dify's reading).
 */
export function readMetadataFilter(
  raw: unknown,
  fields: readonly MetadataField[],
  builtInEnabled: boolean,
): DocumentFilter | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!isRecord(raw)) return refuse("must be an object.");
  const operator = raw.logical_operator;
  if (operator !== undefined && operator !== null && operator !== "and" && operator !== "or")
    refuse('logical_operator must be "and" or "or".');
  const conditions = raw.conditions ?? [];
  if (!Array.isArray(conditions)) return refuse("conditions must be a list.");
  if (conditions.length > MAX_FILTER_CONDITIONS) refuse(`at most ${MAX_FILTER_CONDITIONS} conditions.`);
  const byName = new Map(fields.map((field) => [field.name, field]));
  const read = conditions.flatMap((condition) => conditionOf(condition, byName, builtInEnabled) ?? []);
  if (read.length === 0) return undefined;
  return { logic: operator === undefined || operator === "and" ? "and" : "or", conditions: read };
}
