import { type Chunk, type ChunkStats, type Document, NO_CHUNKS, type UploadFile } from "@service-api/domain";
import type { DocumentRepository } from "../../document-repository.js";
import { byPosition, type Snapshotting } from "./snapshotting.js";

export class InMemoryDocumentRepository implements DocumentRepository, Snapshotting {
  #documents = new Map<string, Document>();
  #files = new Map<string, UploadFile>();
  #chunks = new Map<string, Chunk>();

  snapshot(): unknown {
    return structuredClone([this.#documents, this.#files, this.#chunks]);
  }

  restore(snapshot: unknown): void {
    [this.#documents, this.#files, this.#chunks] = snapshot as [
      Map<string, Document>,
      Map<string, UploadFile>,
      Map<string, Chunk>,
    ];
  }

  async replaceChunks(documentId: string, chunks: readonly Chunk[]): Promise<void> {
    for (const [id, chunk] of this.#chunks) if (chunk.documentId === documentId) this.#chunks.delete(id);
    await this.saveChunks(chunks);
  }

  async listInDataset(datasetId: string): Promise<Document[]> {
    const documents = [...this.#documents.values()].filter((document) => document.datasetId === datasetId);
    return structuredClone(documents.sort(byPosition));
  }

  async listChunks(documentId: string): Promise<Chunk[]> {
    const chunks = [...this.#chunks.values()].filter((chunk) => chunk.documentId === documentId);
    return structuredClone(chunks.sort(byPosition));
  }

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
