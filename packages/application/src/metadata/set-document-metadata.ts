import {
  ensureDatasetServesApi,
  InvalidParamError,
  type MetadataField,
  NotFoundError,
  typedMetadataValue,
} from "@service-api/domain";
import type { DocumentValueChanges, MetadataRepository } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";
import { checkedOperations } from "./document-metadata-operations.js";
import { metadataNotFound } from "./metadata-field-rules.js";

/** One document's values: `partialUpdate` false makes them its only values; true sets or clears each. */
export interface DocumentMetadataOperation {
  documentId: string;
  /** `value` null (or absent) clears the field; any field's `name` sent is ignored. */
  metadataList: readonly { id: string; value: unknown }[];
  partialUpdate: boolean;
}

export interface SetDocumentMetadataInput {
  workspaceId: string;
  /** Checked here (404, 403) after the operations' shape: read with the fields and documents. */
  datasetId: string;
  operations: DocumentMetadataOperation[];
}

/**
 * Update Document Metadata: values of custom fields on documents, each typed by its field. The
 * operations apply in order, as one write: any missing document or field, or any value of the
 * wrong type, and nothing is written.
 */
export class SetDocumentMetadata {
  constructor(private readonly metadata: MetadataRepository) {}

  async execute(input: SetDocumentMetadataInput): Promise<void> {
    ensureInput(input);
    const operations = checkedOperations(input.operations);
    const { workspaceId, datasetId } = input;
    ensureDatasetScope(input);
    const found = await this.metadata.findForValueWrite(
      workspaceId,
      datasetId,
      operations.map((operation) => operation.documentId),
    );
    const dataset = ensureDatasetServesApi(found.dataset);
    if (operations.length === 0) return;
    const fields = new Map(found.fields.map((field) => [field.id, field]));
    const documents = new Set(found.documentIds);
    const pending = new Map<string, PendingValues>();
    for (const [index, operation] of operations.entries()) {
      if (!documents.has(operation.documentId)) throw new NotFoundError("Document not found.");
      const values = typedValues(operation, fields, `operation_data.${index}.metadata_list`);
      pending.set(operation.documentId, applied(pending.get(operation.documentId), operation, values));
    }
    await this.metadata.writeValues(
      dataset.id,
      [...pending].map(([documentId, each]) => changesOf(documentId, each)),
    );
  }
}

/** A document's values after the operations so far: `replaceAll` when one of them replaced them all. */
interface PendingValues {
  replaceAll: boolean;
  /** By field id; null clears. */
  values: Map<string, string | null>;
}

/** The pending values once `operation` applies on top of them. */
function applied(
  earlier: PendingValues | undefined,
  operation: DocumentMetadataOperation,
  values: Map<string, string | null>,
): PendingValues {
  if (!operation.partialUpdate || !earlier) return { replaceAll: !operation.partialUpdate, values };
  for (const [fieldId, text] of values) {
    earlier.values.delete(fieldId);
    earlier.values.set(fieldId, text);
  }
  return earlier;
}

function changesOf(documentId: string, { replaceAll, values }: PendingValues): DocumentValueChanges {
  const entries = [...values];
  return {
    documentId,
    replaceAll,
    set: entries.flatMap(([fieldId, text]) => (text === null ? [] : [[fieldId, text] as const])),
    clear: replaceAll ? [] : entries.flatMap(([fieldId, text]) => (text === null ? [fieldId] : [])),
  };
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
