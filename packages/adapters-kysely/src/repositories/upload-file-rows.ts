import type { UploadFile } from "@service-api/domain";
import type { Kysely, Selectable } from "kysely";
import type { DatabaseSchema, UploadFileTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";

export const uploadFileFromRow = (row: Selectable<UploadFileTable>): UploadFile => ({
  id: row.id,
  name: row.name,
  size: Number(row.size),
  extension: row.extension,
  mimeType: row.mime_type,
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
});

/** The upload file's columns `uploadFileFromRow` reads. */
export const UPLOAD_FILE_COLUMNS = [
  "id",
  "name",
  "size",
  "extension",
  "mime_type",
  "created_by",
  "created_at",
] as const;

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

/** The file of a row holding it as a JSON object (`file`, null for none) or in `FILE_COLUMNS`. */
export function uploadFileOfRow(row: Record<string, unknown>): UploadFile | undefined {
  if (row.file === undefined) return uploadFileFromColumns(row);
  return row.file === null ? undefined : uploadFileFromRow(row.file as Selectable<UploadFileTable>);
}

/** `DocumentRepository.findUploadFileHolders`' read, by the documents' upload file index. */
export async function readUploadFileHolders(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  fileIds: readonly string[],
): Promise<Map<string, string[]>> {
  const holders = new Map<string, string[]>();
  const unique = [...new Set(fileIds)];
  if (unique.length === 0) return holders;
  const list = features.listParameter(unique);
  const rows = await db
    .selectFrom("documents")
    .select(["upload_file_id", "id"])
    .where((eb) => features.inList(eb.ref("upload_file_id"), list))
    .execute();
  for (const { upload_file_id: fileId, id } of rows) {
    if (fileId !== null) holders.set(fileId, [...(holders.get(fileId) ?? []), id]);
  }
  return holders;
}
