import type { MetadataFieldList } from "@service-api/application";
import type { MetadataField } from "@service-api/domain";
import type { z } from "zod";
import type { metadataField, metadataFieldList } from "./schemas.js";

export function presentMetadataFields(list: MetadataFieldList): z.output<typeof metadataFieldList> {
  return {
    doc_metadata: list.fields.map(({ id, name, type, count }) => ({ id, name, type, count })),
    built_in_field_enabled: list.builtInFieldEnabled,
  };
}

export const presentMetadataField = ({ id, type, name }: MetadataField): z.output<typeof metadataField> => ({
  id,
  type,
  name,
});
