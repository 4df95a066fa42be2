import type { MetadataEntry, MetadataFieldType } from "@service-api/domain";
import type { Expression, Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";

/** A document's value with its field, as read from a join of values and fields. */
export const entryFromRow = (row: {
  id: string;
  name: string;
  type: string;
  value: string;
}): MetadataEntry => ({
  id: row.id,
  name: row.name,
  type: row.type as MetadataFieldType,
  value: row.value,
});

/**
 * A document's values joined with their fields, in the fields' order (as `entryFromRow` reads
 * them). `document` is its id, or a column of the query this one is a sub-select of.
 */
export const valuesWithFields = (db: Kysely<DatabaseSchema>, document: string | Expression<string>) =>
  db
    .selectFrom("document_metadata_values as value")
    .innerJoin("metadata_fields as field", "field.id", "value.field_id")
    .select(["field.id", "field.name", "field.type", "value.value"])
    .where("value.document_id", "=", document)
    .orderBy("field.created_at")
    .orderBy("field.position")
    .orderBy("field.id");
