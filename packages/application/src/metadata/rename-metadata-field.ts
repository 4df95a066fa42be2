import { lookupId, type MetadataField } from "@service-api/domain";
import type { DatasetRepository, MetadataRepository } from "@service-api/ports";
import { checkAfterDataset, writeCheckingDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
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
    ensureInput(input);
    const { workspaceId, datasetId, fieldId, name } = input;
    await checkAfterDataset(this.datasets, input, () => ensureFieldName(name));
    const rename = () => this.metadata.renameField(datasetId, lookupId(fieldId), name, workspaceId);
    // A taken name is refused by the unique index, after the dataset's check passed.
    const renamed = await writeCheckingDataset(this.datasets, input, rename, (r) => r === "not_found");
    if (renamed === "not_found") throw metadataNotFound();
    if (renamed === "name_taken") throw metadataNameTaken();
    return renamed;
  }
}
