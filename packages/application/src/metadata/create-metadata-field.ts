import type { MetadataField, MetadataFieldType } from "@service-api/domain";
import type { Clock, DatasetRepository, IdGenerator, MetadataRepository } from "@service-api/ports";
import { checkAfterDataset, writeCheckingDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
import { ensureFieldName, ensureFieldType, metadataNameTaken } from "./metadata-field-rules.js";

export interface CreateMetadataFieldInput {
  workspaceId: string;
  datasetId: string;
  type: MetadataFieldType;
  name: string;
}

/**
 * Create Metadata Field: a custom field, last of the dataset's, its name free in the dataset. One
 * write that checks the dataset as it inserts; the dataset (404, 403) is read only on refusal.
 */
export class CreateMetadataField {
  constructor(
    private readonly metadata: MetadataRepository,
    private readonly datasets: DatasetRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateMetadataFieldInput): Promise<MetadataField> {
    ensureInput(input);
    const { workspaceId, datasetId, name } = input;
    // The type is the body's shape, checked before the dataset; the name's rules after it.
    const type = ensureFieldType(input.type);
    await checkAfterDataset(this.datasets, input, () => ensureFieldName(name));
    const field = { id: this.ids.next(), datasetId, name, type, createdAt: this.clock.nowSeconds() };
    // The store's unique (dataset, name) settles races. Fields created at once may share a place;
    // their order is then by id, as for any tie.
    const create = () => this.metadata.createField(field, workspaceId);
    if (!(await writeCheckingDataset(this.datasets, input, create, (created) => !created))) {
      throw metadataNameTaken();
    }
    return field;
  }
}
