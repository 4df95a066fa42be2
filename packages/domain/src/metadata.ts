import type { DataSourceType, Document } from "./document.js";

export type MetadataFieldType = "string" | "number" | "time";

/** A custom metadata field of a dataset. Names are unique within the dataset. */
export interface MetadataField {
  id: string;
  datasetId: string;
  name: string;
  type: MetadataFieldType;
  createdAt: number;
}

/** One field's value on one document, as the API shows it. */
export interface MetadataEntry {
  id: string;
  name: string;
  type: MetadataFieldType;
  value: string | null;
}

/** A field of the metadata listing with the number of documents that hold a value for it. */
export interface MetadataFieldUsage {
  id: string;
  name: string;
  type: MetadataFieldType;
  count: number;
}

export const BUILT_IN_FIELD_ID = "built-in";

export const BUILT_IN_FIELDS = [
  { name: "document_name", type: "string" },
  { name: "uploader", type: "string" },
  { name: "upload_date", type: "time" },
  { name: "last_update_date", type: "time" },
  { name: "source", type: "string" },
] as const satisfies ReadonlyArray<{ name: string; type: MetadataFieldType }>;

const SOURCE_NAMES: Record<DataSourceType, string> = {
  upload_file: "file_upload",
  thirdparty_import: "notion",
};

/** The five built-in entries of a document; `uploaderName` is the creator's name, if known. */
export function builtInEntries(document: Document, uploaderName: string | null): MetadataEntry[] {
  const values: Record<(typeof BUILT_IN_FIELDS)[number]["name"], string | null> = {
    document_name: document.name,
    uploader: uploaderName,
    upload_date: String(document.createdAt),
    last_update_date: String(document.updatedAt ?? document.createdAt),
    source: SOURCE_NAMES[document.dataSourceType],
  };
  return BUILT_IN_FIELDS.map((field) => ({ id: BUILT_IN_FIELD_ID, ...field, value: values[field.name] }));
}

/** The built-in fields of the listing: every document of the dataset holds all five. */
export function builtInFieldUsage(documentCount: number): MetadataFieldUsage[] {
  return BUILT_IN_FIELDS.map((field) => ({ id: BUILT_IN_FIELD_ID, ...field, count: documentCount }));
}
