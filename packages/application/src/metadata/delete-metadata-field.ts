import type { Dataset } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { metadataNotFound } from "./metadata-field-rules.js";

/** Delete Metadata Field: the field and its value on every document, in one statement. */
export class DeleteMetadataField {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute({ dataset, fieldId }: { dataset: Dataset; fieldId: string }): Promise<void> {
    await this.store.transaction(async ({ datasets, metadata }) => {
      // The dataset first, as every write to its fields and values: one lock order, no deadlock.
      await datasets.lockForUpdate(dataset.id);
      const field = await metadata.findField(dataset.id, fieldId);
      if (!field) throw metadataNotFound();
      if (!(await metadata.deleteField(field.id))) throw metadataNotFound();
    });
  }
}
