import type { Dataset, MetadataEntry, MetadataField, MetadataFieldUsage } from "@service-api/domain";
import type { ServedTo } from "./served-to.js";
import type { Renamed, SaveRefusal } from "./tag-repository.js";

/** One document's values to write: `replaceAll` makes `set` its only values; else `set` sets and `clear` clears. */
export interface DocumentValueChanges {
  documentId: string;
  replaceAll: boolean;
  /** `[fieldId, value]`, one per field. */
  set: readonly (readonly [string, string])[];
  /** Fields whose value goes (none of them in `set`); with `replaceAll`, every field not in `set` goes anyway. */
  clear: readonly string[];
}

/**
 * Custom metadata fields of datasets and their values on documents. Values are keyed by field id,
 * so a field keeps its values through a rename. Each field's count of documents holding a value is
 * kept by the store in step with every write.
 */
export interface MetadataRepository {
  /**
   * Inserts or replaces the field with this id (imports), in one statement; refused, writing nothing
   * (see {@link SaveRefusal}), when the id is another dataset's field, the stored field has another
   * type, or another field of the dataset has its name (names are unique within a dataset).
   */
  saveField(field: MetadataField): Promise<SaveRefusal | undefined>;
  /**
   * Inserts a new field; false, writing nothing, when its dataset has a field of that name (a store
   * that holds datasets: or has no such dataset). Of concurrent creates of one name, exactly one
   * succeeds. With `servedTo` (a workspace's id), see
   * {@link ServedTo}: false too, writing nothing, when the dataset does not serve that workspace.
   */
  createField(field: MetadataField, servedTo?: ServedTo): Promise<boolean>;
  /** The dataset's field with this id; a field of another dataset is absent. */
  findField(datasetId: string, fieldId: string): Promise<MetadataField | undefined>;
  /**
   * Renames the dataset's field, in one write statement (a store may then wait for its commit's
   * flush before answering): the field as renamed; "not_found" when the
   * dataset has none of that id; "name_taken", writing nothing, when another of its fields has the
   * name. Renaming a field to its own name succeeds. With `servedTo`, "not_found" too when the
   * dataset does not serve that workspace.
   */
  renameField(
    datasetId: string,
    fieldId: string,
    name: string,
    servedTo?: ServedTo,
  ): Promise<Renamed<MetadataField>>;
  /**
   * Deletes the dataset's field and its value on every document, in one statement; false when the
   * dataset has none of that id (never had, or a concurrent request deleted it). With `servedTo`,
   * false too, writing nothing, when the dataset does not serve that workspace.
   */
  deleteField(datasetId: string, fieldId: string, servedTo?: ServedTo): Promise<boolean>;
  /** The dataset's fields in creation order: by creation time, ties in the order created, then by id. */
  listFields(datasetId: string): Promise<MetadataField[]>;
  /** The fields of each dataset, in creation order; a dataset without any maps to []. */
  listFieldsOf(datasetIds: readonly string[]): Promise<Map<string, MetadataField[]>>;
  /** Sets the document's value for the field, replacing any earlier one: at most one value per pair. */
  setValue(documentId: string, fieldId: string, value: string): Promise<void>;
  /** Removes the document's value for the field, if any. */
  clearValue(documentId: string, fieldId: string): Promise<void>;
  /** Removes every value of the document. */
  clearValues(documentId: string): Promise<void>;
  /**
   * The workspace's dataset, its fields in creation order and which of `documentIds` are its
   * documents, read together: one statement where the store can. No dataset: nothing else.
   */
  findForValueWrite(
    workspaceId: string,
    datasetId: string,
    documentIds: readonly string[],
  ): Promise<{ dataset: Dataset | undefined; fields: MetadataField[]; documentIds: string[] }>;
  /**
   * Writes the documents' changes (one per document) atomically: one statement where the store
   * can, taking the dataset's lock first where rows lock. A change to a document or field no longer
   * in the dataset is skipped: a concurrent delete took it, and its values with it.
   */
  writeValues(datasetId: string, changes: readonly DocumentValueChanges[]): Promise<void>;
  /** The document's values, one entry per field holding one, in the fields' creation order. */
  valuesOf(documentId: string): Promise<MetadataEntry[]>;
  /** The values of each document, as `valuesOf`; a document without any maps to []. */
  valuesOfDocuments(documentIds: readonly string[]): Promise<Map<string, MetadataEntry[]>>;
  /** The dataset's fields in creation order, each with the number of documents holding a value (0 if none). */
  listFieldUsage(datasetId: string): Promise<MetadataFieldUsage[]>;
  /**
   * The workspace's dataset (absent when the workspace has none of that id), its number of
   * documents, and its fields as `listFieldUsage` lists them, read together: one statement where
   * the store can.
   */
  findFieldUsage(
    workspaceId: string,
    datasetId: string,
  ): Promise<{ dataset: Dataset | undefined; documentCount: number; fields: MetadataFieldUsage[] }>;
}
