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

/**
 * The file from a row with `FILE_COLUMNS` (their aliases, one by one: a page has many rows, and
 * building the row from `FILE_COLUMNS` cost a tenth of its mapping); undefined when it has none.
 */
export function uploadFileFromColumns(row: Record<string, unknown>): UploadFile | undefined {
  if (row.file_id === null || row.file_id === undefined) return undefined;
  return uploadFileFromRow({
    id: row.file_id,
    workspace_id: row.file_workspace_id,
    name: row.file_name,
    size: row.file_size,
    extension: row.file_extension,
    mime_type: row.file_mime_type,
    created_by: row.file_created_by,
    created_at: row.file_created_at,
  } as Selectable<UploadFileTable>);
}
