import { lookupId, NotFoundError, type UploadFile } from "@service-api/domain";
import type { DocumentRepository, FileStore } from "@service-api/ports";

/**
 * The file a signed URL names, with its bytes, while a document of a dataset in service names it
 * (a deleted document's or dataset's file is not found). The signature is the caller's to check.
 */
export class ReadSignedFile {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly files: FileStore,
  ) {}

  async execute(fileId: string): Promise<{ file: UploadFile; bytes: Uint8Array }> {
    const file = await this.documents.findServedUploadFile(lookupId(fileId));
    const bytes = file && (await this.files.get(file.id));
    if (!file || !bytes) throw new NotFoundError("The requested file was not found.");
    return { file, bytes };
  }
}
