import { lookupId } from "@service-api/domain";
import type { DatasetRepository, MetadataRepository } from "@service-api/ports";
import { writeCheckingDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
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
    ensureInput(input);
    const fieldId = lookupId(input.fieldId);
    const remove = () => this.metadata.deleteField(input.datasetId, fieldId, input.workspaceId);
    if (!(await writeCheckingDataset(this.datasets, input, remove, (deleted) => !deleted))) {
      throw metadataNotFound();
    }
  }
}
