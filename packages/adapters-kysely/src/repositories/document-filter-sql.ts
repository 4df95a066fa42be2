import type {
  BuiltInFieldName,
  DocumentFilter,
  FilterCondition,
  FilterTarget,
  FilterTest,
} from "@service-api/domain";
import { type RawBuilder, sql } from "kysely";
import type { SqlFeatures } from "../sql-features.js";

/*
 * A metadata filter (`readMetadataFilter`) as a condition on the documents row `d`, evaluated in
 * the search's own statement: a field's value is read by its key (document, field), a built-in
 * field from the document's columns. A document without the value fails every test but `empty`
 * (SQL's null), as in Dify.
 */

type Value = RawBuilder<unknown>;

const NONE = sql<boolean>`1 = 0`;
const ALL = sql<boolean>`1 = 1`;

const fieldValue = (fieldId: string): Value =>
  sql`(select v.value from document_metadata_values v where v.document_id = d.id and v.field_id = ${fieldId})`;

/** A built-in field's value as Dify writes it: text, the dates as seconds (`asNumber`) or UTC text. */
function builtInValue(name: BuiltInFieldName, asNumber: boolean, features: SqlFeatures): Value {
  switch (name) {
    case "document_name":
      return sql`d.name`;
    case "uploader":
      return sql`(select m.name from members m where m.id = d.created_by limit 1)`;
    case "source":
      return sql`(case d.data_source_type when 'upload_file' then 'file_upload' when 'thirdparty_import' then 'notion' end)`;
    case "upload_date":
      return asNumber ? sql`d.created_at` : features.utcDateTime(sql`d.created_at`);
    case "last_update_date": {
      const seconds = sql`coalesce(d.updated_at, d.created_at)`;
      return asNumber ? seconds : features.utcDateTime(seconds);
    }
  }
}

const NUMBER_OPERATORS = { "=": "=", "≠": "<>", "<": "<", ">": ">", "≤": "<=", "≥": ">=" } as const;

function testSql(target: FilterTarget, test: FilterTest, features: SqlFeatures): RawBuilder<boolean> {
  const asNumber = test.kind === "number";
  const value =
    target.kind === "field" ? fieldValue(target.fieldId) : builtInValue(target.name, asNumber, features);
  switch (test.kind) {
    case "present":
      return test.negated ? sql<boolean>`${value} is null` : sql<boolean>`${value} is not null`;
    case "in": {
      const list = sql.join(test.values);
      return test.negated ? sql<boolean>`${value} not in (${list})` : sql<boolean>`${value} in (${list})`;
    }
    case "number": {
      const isDate =
        target.kind === "builtin" && (target.name === "upload_date" || target.name === "last_update_date");
      const stored = isDate ? value : features.numericValue(value);
      return sql<boolean>`${stored} ${sql.raw(NUMBER_OPERATORS[test.operator])} ${features.real(test.value)}`;
    }
    case "text": {
      const length = [...test.value].length;
      switch (test.operator) {
        case "contains":
          return features.holdsText(value, test.value);
        case "not contains":
          return sql<boolean>`not (${features.holdsText(value, test.value)})`;
        case "start with":
          return sql<boolean>`substr(${value}, 1, ${length}) = ${test.value}`;
        case "end with":
          return sql<boolean>`(length(${value}) >= ${length} and substr(${value}, length(${value}) - ${length} + 1) = ${test.value})`;
        case "=":
          return sql<boolean>`${value} = ${test.value}`;
        case "≠":
          return sql<boolean>`${value} <> ${test.value}`;
      }
    }
  }
}

function conditionSql(condition: FilterCondition, features: SqlFeatures): RawBuilder<boolean> {
  if (condition.kind === "never") return NONE;
  if (condition.kind === "always") return ALL;
  // A test on a missing value is null: coalesced to false, so that `not` and `or` read it as Dify's SQL does.
  return sql<boolean>`coalesce(${testSql(condition.target, condition.test, features)}, ${NONE})`;
}

/** The filter as one condition on `d`. */
export function documentFilterSql(filter: DocumentFilter, features: SqlFeatures): RawBuilder<boolean> {
  const parts = filter.conditions.map((condition) => conditionSql(condition, features));
  return sql<boolean>`(${sql.join(parts, filter.logic === "and" ? sql` and ` : sql` or `)})`;
}
