import type { MetadataFieldList } from "@service-api/application";

export function presentMetadataFields(list: MetadataFieldList) {
  return {
    doc_metadata: list.fields.map(({ id, name, type, count }) => ({ id, name, type, count })),
    built_in_field_enabled: list.builtInFieldEnabled,
  };
}
