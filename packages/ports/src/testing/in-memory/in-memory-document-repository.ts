import { type Chunk, type ChunkStats, type Document, NO_CHUNKS, type UploadFile } from "@service-api/domain";
import type { DocumentRepository } from "../../document-repository.js";

export class InMemoryDocumentRepository implements DocumentRepository {
  readonly #documents = new Map<string, Document>();
  readonly #files = new Map<string, UploadFile>();
  readonly #chunks = new Map<string, Chunk>();

  async save(document: Document): Promise<void> {
    this.#documents.set(document.id, structuredClone(document));
  }

  async saveUploadFile(_workspaceId: string, file: UploadFile): Promise<void> {
    this.#files.set(file.id, structuredClone(file));
  }

  async saveChunks(chunks: readonly Chunk[]): Promise<void> {
    for (const chunk of chunks) this.#chunks.set(chunk.id, structuredClone(chunk));
  }

  async findInDataset(datasetId: string, documentId: string): Promise<Document | undefined> {
    const document = this.#documents.get(documentId);
    return document?.datasetId === datasetId ? structuredClone(document) : undefined;
  }

  async findUploadFile(fileId: string): Promise<UploadFile | undefined> {
    return structuredClone(this.#files.get(fileId));
  }

  async chunkStats(documentId: string): Promise<ChunkStats> {
    const stats = { ...NO_CHUNKS };
    for (const chunk of this.#chunks.values()) {
      if (chunk.documentId !== documentId) continue;
      stats.count += 1;
      stats.hitCount += chunk.hitCount;
      stats.characters += [...chunk.content].length;
    }
    return stats;
  }

  async countInDataset(datasetId: string): Promise<number> {
    return [...this.#documents.values()].filter((document) => document.datasetId === datasetId).length;
  }
}
