import type { MetadataEntry, MetadataFieldType } from "@service-api/domain";

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
