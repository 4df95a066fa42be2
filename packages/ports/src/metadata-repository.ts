import type { MetadataEntry, MetadataField, MetadataFieldUsage } from "@service-api/domain";

/** Custom metadata fields of datasets and their values on documents. */
export interface MetadataRepository {
  /** Inserts or replaces the field with this id. Names are unique within a dataset. */
  saveField(field: MetadataField): Promise<void>;
  /** The dataset's fields in creation order (then by id). */
  listFields(datasetId: string): Promise<MetadataField[]>;
  /** Sets the document's value for the field, replacing any earlier one: at most one value per pair. */
  setValue(documentId: string, fieldId: string, value: string): Promise<void>;
  /** The document's values, one entry per field holding one, in the fields' creation order. */
  valuesOf(documentId: string): Promise<MetadataEntry[]>;
  /** The dataset's fields in creation order, each with the number of documents holding a value (0 if none). */
  listFieldUsage(datasetId: string): Promise<MetadataFieldUsage[]>;
}
