import { builtInFieldUsage, ensureDatasetServesApi, type MetadataFieldUsage } from "@service-api/domain";
import type { MetadataRepository } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

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
  constructor(private readonly metadata: MetadataRepository) {}

  async execute(input: ListMetadataFieldsInput): Promise<MetadataFieldList> {
    ensureInput(input);
    ensureDatasetScope(input);
    const found = await this.metadata.findFieldUsage(input.workspaceId, input.datasetId);
    const dataset = ensureDatasetServesApi(found.dataset);
    const builtIn = dataset.builtInFieldEnabled ? builtInFieldUsage(found.documentCount) : [];
    return { fields: [...found.fields, ...builtIn], builtInFieldEnabled: dataset.builtInFieldEnabled };
  }
}
