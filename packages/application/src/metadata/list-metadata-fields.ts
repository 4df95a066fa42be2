import { builtInFieldUsage, ensureDatasetServesApi, type MetadataFieldUsage } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository, MetadataRepository } from "@service-api/ports";

export interface ListMetadataFieldsInput {
  workspaceId: string;
  datasetId: string;
}

export interface MetadataFieldList {
  fields: MetadataFieldUsage[];
  builtInFieldEnabled: boolean;
}

/** List Metadata Fields: custom fields with their document counts, then the built-ins when enabled. */
export class ListMetadataFields {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly metadata: MetadataRepository,
  ) {}

  async execute(input: ListMetadataFieldsInput): Promise<MetadataFieldList> {
    const dataset = ensureDatasetServesApi(
      await this.datasets.findInWorkspace(input.workspaceId, input.datasetId),
    );
    const custom = await this.metadata.listFieldUsage(dataset.id);
    const builtIn = dataset.builtInFieldEnabled
      ? builtInFieldUsage(await this.documents.countInDataset(dataset.id))
      : [];
    return { fields: [...custom, ...builtIn], builtInFieldEnabled: dataset.builtInFieldEnabled };
  }
}
