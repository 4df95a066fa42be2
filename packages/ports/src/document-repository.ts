import type { Chunk, ChunkStats, Document, UploadFile } from "@service-api/domain";

/** Documents of knowledge bases, with their chunks and uploaded files. */
export interface DocumentRepository {
  /** Inserts or replaces the document with this id, with its processing rule. Its dataset must exist. */
  save(document: Document): Promise<void>;
  /** Inserts or replaces an uploaded file of this workspace. */
  saveUploadFile(workspaceId: string, file: UploadFile): Promise<void>;
  /** Inserts or replaces these chunks (by id). Their documents must exist. */
  saveChunks(chunks: readonly Chunk[]): Promise<void>;
  /** Makes these the document's only chunks: others of the document are deleted. */
  replaceChunks(documentId: string, chunks: readonly Chunk[]): Promise<void>;
  /** The document with this id if it belongs to this dataset; one of another dataset is absent. */
  findInDataset(datasetId: string, documentId: string): Promise<Document | undefined>;
  /** The uploaded file with this id; absent when the file is gone. */
  findUploadFile(fileId: string): Promise<UploadFile | undefined>;
  /** The dataset's documents, by position then id. */
  listInDataset(datasetId: string): Promise<Document[]>;
  /** The document's chunks, by position then id. */
  listChunks(documentId: string): Promise<Chunk[]>;
  /** Count, total hit count and total characters of the document's chunks (all zero without chunks). */
  chunkStats(documentId: string): Promise<ChunkStats>;
  /** Number of documents in the dataset. */
  countInDataset(datasetId: string): Promise<number>;
}
