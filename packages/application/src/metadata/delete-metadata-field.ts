import type { DatasetRepository, MetadataRepository } from "@service-api/ports";
import { refusedAfterDataset } from "../datasets/open-dataset.js";
import { metadataNotFound } from "./metadata-field-rules.js";

export interface DeleteMetadataFieldInput {
  workspaceId: string;
  datasetId: string;
  fieldId: string;
}

/**
 * Delete Metadata Field: the field and its value on every document, in one statement that checks
 * the dataset as it deletes; the dataset (404, 403) is read only on refusal.
 */
export class DeleteMetadataField {
  constructor(
    private readonly metadata: MetadataRepository,
    private readonly datasets: DatasetRepository,
  ) {}

  async execute(input: DeleteMetadataFieldInput): Promise<void> {
    if (!(await this.metadata.deleteField(input.datasetId, input.fieldId, input.workspaceId))) {
      await refusedAfterDataset(this.datasets, input, metadataNotFound());
    }
  }
}
