import { describe, expect, it } from "vitest";
import type { Document } from "../document.js";
import { InvalidParamError } from "../errors.js";
import type { MetadataField } from "../metadata.js";
import { filterHolds } from "./filter-evaluation.js";
import { readMetadataFilter } from "./metadata-filter.js";

const field = (name: string, type: MetadataField["type"]): MetadataField => ({
  id: `id-${name}`,
  datasetId: "d",
  name,
  type,
  createdAt: 0,
});
const FIELDS = [field("author", "string"), field("year", "number"), field("published", "time")];

const document = {
  id: "doc",
  name: "Handbook.pdf",
  createdAt: Date.UTC(2026, 0, 15, 8, 30, 0) / 1000,
  updatedAt: null,
  dataSourceType: "upload_file",
} as unknown as Document;

/** Whether the conditions hold for a document of these values (by field name). */
function holds(conditions: unknown[], values: Record<string, string>, logical_operator?: string | null) {
  const raw = logical_operator === undefined ? { conditions } : { logical_operator, conditions };
  const filter = readMetadataFilter(raw, FIELDS, true);
  if (!filter) return "no filter";
  const byId = new Map(Object.entries(values).map(([name, value]) => [`id-${name}`, value]));
  return filterHolds(filter, { document, values: byId, uploaderName: "Ada" });
}
const one = (name: string, comparison_operator: string, value: unknown, values: Record<string, string>) =>
  holds([{ name, comparison_operator, value }], values);

const refusal = (raw: unknown) => {
  try {
    readMetadataFilter(raw, FIELDS, true);
    return "accepted";
  } catch (error) {
    return error instanceof InvalidParamError ? error.message : error;
  }
};

describe("metadata filters", () => {
  const ada = { author: "Ada Lovelace", year: "1843", published: "1700000000" };

  it("tests text case-sensitively; a document without the value fails all but empty", () => {
    expect(one("author", "contains", "Love", ada)).toBe(true);
    expect(one("author", "contains", "love", ada)).toBe(false);
    expect(one("author", "not contains", "Babbage", ada)).toBe(true);
    expect(one("author", "not contains", "Babbage", {})).toBe(false);
    expect(one("author", "start with", "Ada", ada)).toBe(true);
    expect(one("author", "end with", "lace", ada)).toBe(true);
    expect(one("author", "is", "Ada Lovelace", ada)).toBe(true);
    expect(one("author", "is not", "Ada Lovelace", ada)).toBe(false);
    expect(one("author", "is not", "Babbage", {})).toBe(false);
    expect(one("author", "empty", null, {})).toBe(true);
    expect(one("author", "not empty", null, ada)).toBe(true);
    expect(one("author", "empty", "ignored", ada)).toBe(false);
  });

  it("compares numbers and instants as numbers, dates as UTC text or Unix seconds", () => {
    expect(one("year", ">", 1800, ada)).toBe(true);
    expect(one("year", "≤", "1843", ada)).toBe(true);
    expect(one("year", "=", 1843, ada)).toBe(true);
    expect(one("year", "≠", 1843, ada)).toBe(false);
    expect(one("year", "<", 1800, { year: "not a number" })).toBe(false);
    expect(one("published", "after", "2023-11-14 22:13:19", ada)).toBe(true);
    expect(one("published", "before", 1_700_000_001, ada)).toBe(true);
    expect(one("upload_date", "after", "2026-01-15 08:29:59", {})).toBe(true);
    expect(one("upload_date", "before", "2026-01-15 08:30:00", {})).toBe(false);
    expect(one("upload_date", "start with", "2026-01-15", {})).toBe(true);
    expect(one("last_update_date", "is", "2026-01-15 08:30:00", {})).toBe(true);
  });

  it("reads in's values from a list or from comma-separated text; in [] is none, not in [] all", () => {
    expect(one("author", "in", "Babbage, Ada Lovelace", ada)).toBe(true);
    expect(one("year", "in", [1843, null, "x"], ada)).toBe(true);
    expect(one("author", "not in", ["Babbage"], ada)).toBe(true);
    expect(one("author", "not in", ["Babbage"], {})).toBe(false);
    expect(one("author", "in", [], ada)).toBe(false);
    expect(one("author", "not in", [], {})).toBe(true);
  });

  it("reads the built-in fields, matches nothing for a name the dataset has no field of", () => {
    expect(one("document_name", "end with", ".pdf", {})).toBe(true);
    expect(one("uploader", "is", "Ada", {})).toBe(true);
    expect(one("source", "is", "file_upload", {})).toBe(true);
    expect(one("nonexistent", "empty", null, {})).toBe(false);
    const off = readMetadataFilter(
      { conditions: [{ name: "source", comparison_operator: "not empty" }] },
      FIELDS,
      false,
    );
    expect(off).toEqual({ logic: "and", conditions: [{ kind: "never" }] });
  });

  it("joins with and unless the operator says or, an explicit null meaning or; skips conditions without a value", () => {
    const conditions = [
      { name: "author", comparison_operator: "contains", value: "Ada" },
      { name: "year", comparison_operator: ">", value: 1900 },
    ];
    expect(holds(conditions, ada)).toBe(false);
    expect(holds(conditions, ada, "and")).toBe(false);
    expect(holds(conditions, ada, "or")).toBe(true);
    expect(holds(conditions, ada, null)).toBe(true);
    expect(holds([{ name: "author", comparison_operator: "contains", value: null }], ada)).toBe("no filter");
    expect(readMetadataFilter({ conditions: [] }, FIELDS, true)).toBeUndefined();
    expect(readMetadataFilter(null, FIELDS, true)).toBeUndefined();
  });

  it("refuses unknown operators, values a numeric operator cannot read, and too many conditions", () => {
    const condition = (comparison_operator: string, value: unknown) => ({
      conditions: [{ name: "year", comparison_operator, value }],
    });
    expect(refusal(condition(">=", 1))).toBe(
      'metadata_filtering_conditions: unknown comparison operator ">=".',
    );
    expect(refusal(condition(">", "many"))).toBe('metadata_filtering_conditions: ">" needs a number.');
    expect(refusal(condition("before", "yesterday"))).toBe(
      'metadata_filtering_conditions: "before" needs Unix seconds or a "YYYY-MM-DD HH:MM:SS" time.',
    );
    expect(refusal(condition("after", "2026-02-30 00:00:00"))).toBe(
      'metadata_filtering_conditions: "2026-02-30 00:00:00" is no date.',
    );
    expect(refusal(condition("contains", { a: 1 }))).toBe(
      'metadata_filtering_conditions: "contains" needs text or a number.',
    );
    expect(refusal({ logical_operator: "xor", conditions: [] })).toBe(
      'metadata_filtering_conditions: logical_operator must be "and" or "or".',
    );
    expect(refusal({ conditions: Array.from({ length: 101 }, () => condition("=", 1).conditions[0]) })).toBe(
      "metadata_filtering_conditions: at most 100 conditions.",
    );
    expect(refusal({ conditions: "x" })).toBe("metadata_filtering_conditions: conditions must be a list.");
    expect(refusal({ conditions: [5] })).toBe(
      "metadata_filtering_conditions: each condition must be an object.",
    );
  });
});
