import type { Document } from "../document.js";
import { builtInDateText, builtInEntries } from "../metadata.js";
import {
  type DocumentFilter,
  type FilterCondition,
  type FilterTest,
  NUMERIC_TEXT,
} from "./metadata-filter.js";

/** What a filter reads of a document: its values by field id, and its uploader's name. */
export interface FilteredDocument {
  document: Document;
  values: ReadonlyMap<string, string>;
  uploaderName: string | null;
}

const DATES = new Set(["upload_date", "last_update_date"]);

function compare(operator: "=" | "≠" | "<" | ">" | "≤" | "≥", left: number, right: number): boolean {
  switch (operator) {
    case "=":
      return left === right;
    case "≠":
      return left !== right;
    case "<":
      return left < right;
    case ">":
      return left > right;
    case "≤":
      return left <= right;
    case "≥":
      return left >= right;
  }
}

function passes(test: FilterTest, value: string | null, number: number | null): boolean {
  if (test.kind === "present") return test.negated ? value === null : value !== null;
  if (value === null) return false;
  switch (test.kind) {
    case "in":
      return test.values.includes(value) !== test.negated;
    case "number":
      return number !== null && compare(test.operator, number, test.value);
    case "text":
      switch (test.operator) {
        case "contains":
          return value.includes(test.value);
        case "not contains":
          return !value.includes(test.value);
        case "start with":
          return value.startsWith(test.value);
        case "end with":
          return value.endsWith(test.value);
        case "=":
          return value === test.value;
        case "≠":
          return value !== test.value;
      }
  }
}

function holds(condition: FilterCondition, { document, values, uploaderName }: FilteredDocument): boolean {
  if (condition.kind !== "test") return condition.kind === "always";
  const { target, test } = condition;
  if (target.kind === "field") {
    const value = values.get(target.fieldId) ?? null;
    const number = value !== null && NUMERIC_TEXT.test(value) ? Number(value) : null;
    return passes(test, value, number);
  }
  const entry = builtInEntries(document, uploaderName).find((built) => built.name === target.name);
  const raw = entry?.value ?? null;
  if (DATES.has(target.name) && raw !== null)
    return passes(test, test.kind === "number" ? raw : builtInDateText(Number(raw)), Number(raw));
  return passes(test, raw, raw !== null && NUMERIC_TEXT.test(raw) ? Number(raw) : null);
}

/** Whether the filter holds for the document: what the stores' queries compute, for fakes and tests. */
export function filterHolds(filter: DocumentFilter, document: FilteredDocument): boolean {
  return filter.logic === "and"
    ? filter.conditions.every((condition) => holds(condition, document))
    : filter.conditions.some((condition) => holds(condition, document));
}
