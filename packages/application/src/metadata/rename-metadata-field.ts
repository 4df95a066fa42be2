import type { Dataset, MetadataField } from "@service-api/domain";
import type { MetadataRepository } from "@service-api/ports";
import { ensureFieldName, metadataNameTaken, metadataNotFound } from "./metadata-field-rules.js";

export interface RenameMetadataFieldInput {
  dataset: Dataset;
  fieldId: string;
  name: string;
}

/**
 * Update Metadata Field: renames a field, in one write. Values are keyed by the field's id, so
 * every document keeps its value and shows the new name at once. A missing field is 404 whatever
 * the name.
 */
export class RenameMetadataField {
  constructor(private readonly metadata: MetadataRepository) {}

  async execute({ dataset, fieldId, name }: RenameMetadataFieldInput): Promise<MetadataField> {
    ensureFieldName(name);
    const renamed = await this.metadata.renameField(dataset.id, fieldId, name);
    if (renamed === "not_found") throw metadataNotFound();
    if (renamed === "name_taken") throw metadataNameTaken();
    return renamed;
  }
}
