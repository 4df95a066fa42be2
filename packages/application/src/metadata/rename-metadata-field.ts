import type { Dataset, MetadataField } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { ensureFieldName, metadataNameTaken, metadataNotFound } from "./metadata-field-rules.js";

export interface RenameMetadataFieldInput {
  dataset: Dataset;
  fieldId: string;
  name: string;
}

/**
 * Update Metadata Field: renames a field. Values are keyed by the field's id, so every document
 * keeps its value and shows the new name at once. A missing field is 404 whatever the name.
 */
export class RenameMetadataField {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute({ dataset, fieldId, name }: RenameMetadataFieldInput): Promise<MetadataField> {
    ensureFieldName(name);
    return this.store.transaction(async ({ datasets, metadata }) => {
      await datasets.lockForUpdate(dataset.id);
      const field = await metadata.findField(dataset.id, fieldId);
      if (!field) throw metadataNotFound();
      if (field.name === name) return field;
      if (!(await metadata.renameField(field.id, name))) throw metadataNameTaken();
      return { ...field, name };
    });
  }
}
