/**
 * The bytes of uploaded files, by the file's id (`UploadFile`). Kept in the database by default, so
 * that every instance on one PostgreSQL serves them and one backup holds everything; a file's bytes
 * go with its row. Within a store transaction, a write lands with the transaction or not at all.
 */
export interface FileStore {
  /** Stores the bytes of an uploaded file whose row exists (replacing any stored for it). */
  put(fileId: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes; undefined when none are stored (no such file, or its row is gone). */
  get(fileId: string): Promise<Uint8Array | undefined>;
}
