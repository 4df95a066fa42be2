import type { MetadataField } from "@service-api/domain";
import type { DatasetRepository, MetadataRepository } from "@service-api/ports";
import { refusedAfterDataset } from "../datasets/open-dataset.js";
import { ensureFieldName, metadataNameTaken, metadataNotFound } from "./metadata-field-rules.js";

export interface RenameMetadataFieldInput {
  workspaceId: string;
  datasetId: string;
  fieldId: string;
  name: string;
}

/**
 * Update Metadata Field: renames a field, in one write that checks the dataset as it writes (the
 * dataset, 404 or 403, is read only on refusal). Values are keyed by the field's id, so every
 * document keeps its value and shows the new name at once. A missing field is 404 whatever the name.
 */
export class RenameMetadataField {
  constructor(
    private readonly metadata: MetadataRepository,
    private readonly datasets: DatasetRepository,
  ) {}

  async execute(input: RenameMetadataFieldInput): Promise<MetadataField> {
    const { workspaceId, datasetId, fieldId, name } = input;
    try {
      ensureFieldName(name);
    } catch (error) {
      return refusedAfterDataset(this.datasets, input, error);
    }
    const renamed = await this.metadata.renameField(datasetId, fieldId, name, workspaceId);
    if (renamed === "not_found") return refusedAfterDataset(this.datasets, input, metadataNotFound());
    // Refused by the unique name, so the dataset was checked and passed.
    if (renamed === "name_taken") throw metadataNameTaken();
    return renamed;
  }
}
