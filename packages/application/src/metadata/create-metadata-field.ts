import type { Dataset, MetadataField, MetadataFieldType } from "@service-api/domain";
import type { Clock, IdGenerator, MetadataRepository } from "@service-api/ports";
import { ensureFieldName, metadataNameTaken } from "./metadata-field-rules.js";

export interface CreateMetadataFieldInput {
  dataset: Dataset;
  type: MetadataFieldType;
  name: string;
}

/** Create Metadata Field: a custom field, last of the dataset's, its name free in the dataset. */
export class CreateMetadataField {
  constructor(
    private readonly metadata: MetadataRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute({ dataset, type, name }: CreateMetadataFieldInput): Promise<MetadataField> {
    ensureFieldName(name);
    const field = {
      id: this.ids.next(),
      datasetId: dataset.id,
      name,
      type,
      createdAt: this.clock.nowSeconds(),
    };
    // One statement: the store's unique (dataset, name) settles races. Fields created at once
    // may share a place; their order is then by id, as for any tie.
    if (!(await this.metadata.createField(field))) throw metadataNameTaken();
    return field;
  }
}
