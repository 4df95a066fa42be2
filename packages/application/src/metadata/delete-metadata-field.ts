import type { Dataset } from "@service-api/domain";
import type { MetadataRepository } from "@service-api/ports";
import { metadataNotFound } from "./metadata-field-rules.js";

/** Delete Metadata Field: the field and its value on every document, in one statement. */
export class DeleteMetadataField {
  constructor(private readonly metadata: MetadataRepository) {}

  async execute({ dataset, fieldId }: { dataset: Dataset; fieldId: string }): Promise<void> {
    if (!(await this.metadata.deleteField(dataset.id, fieldId))) throw metadataNotFound();
  }
}
