import type { DocumentRepository } from "@service-api/ports";
import type { ImportFile } from "../format/import-file-schema.js";
import { heldElsewhere } from "./write-context.js";

/** For each upload file id of the file, the stored documents outside the file that name it. */
export type FileHolders = Map<string, string[]>;

/**
 * The stored documents naming the file's upload files, but for the file's own documents: those
 * take the upload file the file gives them, so two of them may swap theirs (the file's repeats are
 * `checkFile`'s).
 */
export async function uploadFileHoldersOf(
  file: ImportFile,
  documents: DocumentRepository,
): Promise<FileHolders> {
  const fileDocuments = file.workspaces.flatMap((workspace) =>
    workspace.datasets.flatMap((dataset) => dataset.documents),
  );
  const listed = new Set(fileDocuments.map((document) => document.id!));
  const fileIds = fileDocuments.flatMap((document) =>
    document.upload_file ? [document.upload_file.id!] : [],
  );
  const holders = await documents.findUploadFileHolders(fileIds);
  for (const [fileId, documentIds] of holders) {
    const outside = documentIds.filter((documentId) => !listed.has(documentId));
    if (outside.length > 0) holders.set(fileId, outside);
    else holders.delete(fileId);
  }
  return holders;
}

/** Why a document of the file may not take this upload file: a stored document outside the file has it. */
export function fileHeldElsewhere(holders: FileHolders, fileId: string): string | undefined {
  return holders.has(fileId) ? heldElsewhere(fileId, "another document's upload file") : undefined;
}
