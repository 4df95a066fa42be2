import type { Dataset, MetadataField, MetadataFieldType } from "@service-api/domain";
import type { Clock, IdGenerator, Store } from "@service-api/ports";
import { ensureFieldName, metadataNameTaken } from "./metadata-field-rules.js";

export interface CreateMetadataFieldInput {
  dataset: Dataset;
  type: MetadataFieldType;
  name: string;
}

/** Create Metadata Field: a custom field, last of the dataset's, its name free in the dataset. */
export class CreateMetadataField {
  constructor(
    private readonly store: Pick<Store, "transaction">,
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
    await this.store.transaction(async ({ datasets, metadata }) => {
      await datasets.lockForUpdate(dataset.id);
      if (!(await metadata.createField(field))) throw metadataNameTaken();
    });
    return field;
  }
}
