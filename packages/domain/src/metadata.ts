import type { DataSourceType, Document } from "./document.js";
import {
  BLANK_NAME,
  codePointLength,
  isBlank,
  NAME_NOT_TEXT,
  UNSTORABLE_NAME,
  UNSTORABLE_TEXT,
} from "./names.js";
import { isStorableText } from "./text.js";

export type MetadataFieldType = "string" | "number" | "time";

export const METADATA_FIELD_TYPES = ["string", "number", "time"] as const;

/** Values of no other type can be typed (`typedMetadataValue`), shown or exported: such a field is refused. */
export function isMetadataFieldType(value: unknown): value is MetadataFieldType {
  return (METADATA_FIELD_TYPES as readonly unknown[]).includes(value);
}

export const METADATA_FIELD_TYPE_REFUSED = "type: must be string, number or time.";

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
  return BUILT_IN_FIELDS.map(({ name, type }) => ({
    id: BUILT_IN_FIELD_ID,
    name,
    type,
    value: values[name],
  }));
}

/** A built-in date (Unix seconds) as Dify stores it in `doc_metadata`: UTC `YYYY-MM-DD HH:MM:SS`. */
export const builtInDateText = (seconds: number): string =>
  new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");

/** The built-in fields of the listing: every document of the dataset holds all five. */
export function builtInFieldUsage(documentCount: number): MetadataFieldUsage[] {
  return BUILT_IN_FIELDS.map(({ name, type }) => ({
    id: BUILT_IN_FIELD_ID,
    name,
    type,
    count: documentCount,
  }));
}

export const METADATA_FIELD_NAME_MAX_LENGTH = 255;

const BUILT_IN_NAMES = new Set<string>(BUILT_IN_FIELDS.map((field) => field.name));

export function isBuiltInFieldName(name: string): boolean {
  return BUILT_IN_NAMES.has(name);
}

/**
 * Why a metadata field name is refused, checked in order (not text, blank, length, text no store
 * holds, a built-in's name), or undefined. Whether another field of the dataset holds it is the
 * store's to say.
 */
export function metadataFieldNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return NAME_NOT_TEXT;
  if (isBlank(name)) return BLANK_NAME;
  if (codePointLength(name) > METADATA_FIELD_NAME_MAX_LENGTH)
    return "name: Metadata name cannot exceed 255 characters.";
  if (!isStorableText(name)) return UNSTORABLE_NAME;
  if (isBuiltInFieldName(name)) return "Metadata name already exists in Built-in fields.";
  return undefined;
}

export const METADATA_NAME_TAKEN = "Metadata name already exists.";

/** A value for a field, as stored: text, or null to clear it. */
export type TypedMetadataValue = { ok: true; text: string | null } | { ok: false; reason: string };

/** Each digit belongs to one place (no `\d+\.?\d*`, which splits n digits n ways): linear time. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHOLE_SECONDS = /^-?\d+$/;

/**
 * A value given for a field of `type`, as it is stored and shown: strings as they are; numbers
 * (finite JSON numbers, or decimal strings) as JavaScript writes them (`"042"` → `"42"`); times (Unix
 * seconds: a safe integer, or its decimal digits) as decimal integers. `null` clears any field.
 */
export function typedMetadataValue(type: MetadataFieldType, value: unknown): TypedMetadataValue {
  if (value === null) return { ok: true, text: null };
  switch (type) {
    case "string":
      if (typeof value !== "string") return { ok: false, reason: "must be a string." };
      return isStorableText(value) ? { ok: true, text: value } : { ok: false, reason: UNSTORABLE_TEXT };
    case "number": {
      const number =
        typeof value === "number"
          ? value
          : typeof value === "string" && DECIMAL.test(value)
            ? Number(value)
            : NaN;
      return Number.isFinite(number)
        ? { ok: true, text: String(number) }
        : { ok: false, reason: "must be a finite number or numeric string." };
    }
    default: {
      const seconds =
        typeof value === "number"
          ? value
          : typeof value === "string" && WHOLE_SECONDS.test(value)
            ? Number(value)
            : NaN;
      return Number.isSafeInteger(seconds)
        ? { ok: true, text: String(seconds === 0 ? 0 : seconds) }
        : { ok: false, reason: "must be a Unix timestamp in whole seconds." };
    }
  }
}
