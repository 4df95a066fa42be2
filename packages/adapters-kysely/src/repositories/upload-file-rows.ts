import type { UploadFile } from "@service-api/domain";
import type { Selectable } from "kysely";
import type { UploadFileTable } from "../schema.js";

export const uploadFileFromRow = (row: Selectable<UploadFileTable>): UploadFile => ({
  id: row.id,
  name: row.name,
  size: Number(row.size),
  extension: row.extension,
  mimeType: row.mime_type,
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
});

/** The upload file's columns, renamed so they sit beside a document's in one row. */
export const FILE_COLUMNS = {
  "file.id": "file_id",
  "file.workspace_id": "file_workspace_id",
  "file.name": "file_name",
  "file.size": "file_size",
  "file.extension": "file_extension",
  "file.mime_type": "file_mime_type",
  "file.created_by": "file_created_by",
  "file.created_at": "file_created_at",
} as const;

/** The file from a row with `FILE_COLUMNS`; undefined when the row has none. Read field by field: a page has many rows. */
export function uploadFileFromColumns(row: Record<string, unknown>): UploadFile | undefined {
  if (row.file_id === null || row.file_id === undefined) return undefined;
  return {
    id: row.file_id as string,
    name: row.file_name as string,
    size: Number(row.file_size),
    extension: row.file_extension as string,
    mimeType: row.file_mime_type as string,
    createdBy: row.file_created_by as string,
    createdAt: Number(row.file_created_at),
  };
}
