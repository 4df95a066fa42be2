import type { Chunk, ChunkStats, Document, UploadFile } from "@service-api/domain";
import type { DocumentRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import { documentFromRow, documentToRow } from "./document-rows.js";
import { updateAllBut } from "./rows.js";

/** Characters as the API counts them: code points, as SQLite's length() does. */
const characterCount = (text: string) => [...text].length;

const documentInDataset = compiledRead((db, datasetId: string, documentId: string) =>
  db.selectFrom("documents").selectAll().where("id", "=", documentId).where("dataset_id", "=", datasetId),
);
const uploadFileById = compiledRead((db, fileId: string) =>
  db.selectFrom("upload_files").selectAll().where("id", "=", fileId),
);
const statsOfChunks = compiledRead((db, documentId: string) =>
  db
    .selectFrom("chunks")
    .select((eb) => [
      eb.fn.countAll<number>().as("count"),
      eb.fn.coalesce(eb.fn.sum<number>("hit_count"), eb.lit(0)).as("hitCount"),
      eb.fn.coalesce(eb.fn.sum<number>("char_count"), eb.lit(0)).as("characters"),
    ])
    .where("document_id", "=", documentId),
);
const documentCount = compiledRead((db, datasetId: string) =>
  db.selectFrom("datasets").select("document_count").where("id", "=", datasetId),
);

export class KyselyDocumentRepository implements DocumentRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(document: Document): Promise<void> {
    const row = documentToRow(document);
    await this.db
      .insertInto("documents")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async saveUploadFile(workspaceId: string, file: UploadFile): Promise<void> {
    const row = {
      id: file.id,
      workspace_id: workspaceId,
      name: file.name,
      size: file.size,
      extension: file.extension,
      mime_type: file.mimeType,
      created_by: file.createdBy,
      created_at: file.createdAt,
    };
    await this.db
      .insertInto("upload_files")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async saveChunks(chunks: readonly Chunk[]): Promise<void> {
    if (chunks.length === 0) return;
    const rows = chunks.map((chunk) => ({
      id: chunk.id,
      document_id: chunk.documentId,
      position: chunk.position,
      content: chunk.content,
      char_count: characterCount(chunk.content),
      hit_count: chunk.hitCount,
    }));
    await this.db
      .insertInto("chunks")
      .values(rows)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(rows[0]!, "id")))
      .execute();
  }

  async replaceChunks(documentId: string, chunks: readonly Chunk[]): Promise<void> {
    await this.db.deleteFrom("chunks").where("document_id", "=", documentId).execute();
    await this.saveChunks(chunks);
  }

  async listInDataset(datasetId: string): Promise<Document[]> {
    const rows = await this.db
      .selectFrom("documents")
      .selectAll()
      .where("dataset_id", "=", datasetId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows.map(documentFromRow);
  }

  async listChunks(documentId: string): Promise<Chunk[]> {
    const rows = await this.db
      .selectFrom("chunks")
      .select(["id", "document_id", "position", "content", "hit_count"])
      .where("document_id", "=", documentId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      documentId: row.document_id,
      position: row.position,
      content: row.content,
      hitCount: row.hit_count,
    }));
  }

  async findInDataset(datasetId: string, documentId: string): Promise<Document | undefined> {
    const [row] = await documentInDataset(this.db, datasetId, documentId);
    return row && documentFromRow(row);
  }

  async findUploadFile(fileId: string): Promise<UploadFile | undefined> {
    const [row] = await uploadFileById(this.db, fileId);
    return (
      row && {
        id: row.id,
        name: row.name,
        size: row.size,
        extension: row.extension,
        mimeType: row.mime_type,
        createdBy: row.created_by,
        createdAt: row.created_at,
      }
    );
  }

  async chunkStats(documentId: string): Promise<ChunkStats> {
    const [row] = await statsOfChunks(this.db, documentId);
    return {
      count: Number(row?.count ?? 0),
      hitCount: Number(row?.hitCount ?? 0),
      characters: Number(row?.characters ?? 0),
    };
  }

  async countInDataset(datasetId: string): Promise<number> {
    // A counter kept by triggers, not a count over the documents.
    const [row] = await documentCount(this.db, datasetId);
    return Number(row?.document_count ?? 0);
  }
}
