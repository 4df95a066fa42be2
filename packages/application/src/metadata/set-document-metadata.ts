import {
  type Dataset,
  InvalidParamError,
  type MetadataField,
  NotFoundError,
  typedMetadataValue,
} from "@service-api/domain";
import type { Repositories, Store } from "@service-api/ports";
import { metadataNotFound } from "./metadata-field-rules.js";

/** One document's values: `partialUpdate` false makes them its only values; true sets or clears each. */
export interface DocumentMetadataOperation {
  documentId: string;
  /** `value` null (or absent) clears the field; any field's `name` sent is ignored. */
  metadataList: readonly { id: string; value: unknown }[];
  partialUpdate: boolean;
}

/**
 * Update Document Metadata: values of custom fields on documents, each typed by its field. The
 * operations apply in order, in one transaction: any missing document or field, or any value of
 * the wrong type, and nothing is written.
 */
export class SetDocumentMetadata {
  constructor(private readonly store: Pick<Store, "transaction">) {}

  async execute({ dataset, operations }: { dataset: Dataset; operations: DocumentMetadataOperation[] }) {
    await this.store.transaction(async (repositories) => {
      await repositories.datasets.lockForUpdate(dataset.id);
      const fields = new Map(
        (await repositories.metadata.listFields(dataset.id)).map((field) => [field.id, field]),
      );
      const documents = new Set(
        (
          await repositories.documents.findManyInDataset(
            dataset.id,
            operations.map((operation) => operation.documentId),
          )
        ).map((document) => document.id),
      );
      for (const [index, operation] of operations.entries()) {
        if (!documents.has(operation.documentId)) throw new NotFoundError("Document not found.");
        const values = typedValues(operation, fields, `operation_data.${index}.metadata_list`);
        await apply(repositories, operation, values);
      }
    });
  }
}

/** The operation's values by field id, as stored (null clears); the last of a field repeated wins. */
function typedValues(
  operation: DocumentMetadataOperation,
  fields: Map<string, MetadataField>,
  at: string,
): Map<string, string | null> {
  const values = new Map<string, string | null>();
  for (const [index, item] of operation.metadataList.entries()) {
    const field = fields.get(item.id);
    if (!field) throw metadataNotFound();
    const typed = typedMetadataValue(field.type, item.value ?? null);
    if (!typed.ok)
      throw new InvalidParamError(`${at}.${index}.value`, `${at}.${index}.value: ${typed.reason}`);
    values.delete(field.id);
    values.set(field.id, typed.text);
  }
  return values;
}

async function apply(
  { metadata }: Repositories,
  operation: DocumentMetadataOperation,
  values: Map<string, string | null>,
): Promise<void> {
  if (!operation.partialUpdate) await metadata.clearValues(operation.documentId);
  for (const [fieldId, text] of values) {
    if (text !== null) await metadata.setValue(operation.documentId, fieldId, text);
    else if (operation.partialUpdate) await metadata.clearValue(operation.documentId, fieldId);
  }
}
