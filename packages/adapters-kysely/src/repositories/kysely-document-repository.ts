import type { Chunk, ChunkStats, Document, UploadFile } from "@service-api/domain";
import type {
  BatchDocument,
  DocumentFilter,
  DocumentPlace,
  DocumentRepository,
  IndexingFence,
  IndexingPatch,
  StatusUpdate,
} from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledForIds, compiledRead, compiledReadWith } from "../compiled-read.js";
import type { DatabaseSchema, Flag } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { type DatasetScope, lockedWhereRowsLock, withAndWithoutServing } from "./dataset-rows.js";
import { documentDetailRead } from "./document-detail-read.js";
import { indexingPatchColumns, readBatch, readReusable, writeWhileFenced } from "./document-indexing.js";
import { documentCount, readDocumentPage, readDocumentPageWithDataset } from "./document-page-read.js";
import {
  CHUNK_COLUMNS,
  chunkFromRow,
  readDocumentsAfter,
  readLastPosition,
} from "./document-position-read.js";
import { documentFromRow, documentToRow } from "./document-rows.js";
import { findForStatusUpdate, updateStatus } from "./document-status-writes.js";
import { saveOwnedRow } from "./owned-rows.js";
import { toFlag, updateAllBut } from "./rows.js";
import { readUploadFileHolders, uploadFileFromRow } from "./upload-file-rows.js";

/** Characters as the API counts them: code points, as SQLite's length() does. */
const characterCount = (text: string) => [...text].length;

const documentInDataset = compiledRead((db, datasetId: string, documentId: string) =>
  db.selectFrom("documents").selectAll().where("id", "=", documentId).where("dataset_id", "=", datasetId),
);
const uploadFileById = compiledRead((db, fileId: string) =>
  db.selectFrom("upload_files").selectAll().where("id", "=", fileId),
);
const servedUploadFile = compiledRead((db, fileId: string) =>
  db
    .selectFrom("upload_files")
    .innerJoin("documents", "documents.upload_file_id", "upload_files.id")
    .innerJoin("datasets", (join) =>
      join
        .onRef("datasets.id", "=", "documents.dataset_id")
        .onRef("datasets.workspace_id", "=", "upload_files.workspace_id"),
    )
    .selectAll("upload_files")
    .where("upload_files.id", "=", fileId)
    .limit(1),
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
const documentsInDataset = compiledForIds((db, among, _features, datasetId) =>
  db
    .selectFrom("documents")
    .selectAll()
    .where("dataset_id", "=", datasetId as string)
    .where(among("id")),
);
/**
 * A document's delete statements, compiled once (on PostgreSQL, named) without the dataset check
 * and with it (`ServedTo`, `scoped`), in the same statement.
 */
const documentDeletes = (scoped: DatasetScope) => ({
  /** The document, when its archived flag is as given; its file is then the caller's to check. */
  documentOnly: compiledRead(
    (db, datasetId: string, documentId: string, archived: Flag, servedTo: string | undefined) =>
      db
        .deleteFrom("documents")
        .where("id", "=", documentId)
        .where("dataset_id", "=", scoped(db, datasetId, servedTo))
        .where("archived", "=", archived)
        .returning("upload_file_id"),
  ),
  /**
   * PostgreSQL: the document and then its file if unused, in one statement, after the dataset's
   * lock. The statement still sees the document it deletes, so the file check leaves it out.
   */
  documentAndFile: compiledReadWith(
    (db, features, datasetId: string, documentId: string, archived: Flag, servedTo: string | undefined) =>
      db
        .with("locked", () => lockedWhereRowsLock(features, scoped(db, datasetId, servedTo), datasetId))
        .with("gone", (w) =>
          w
            .deleteFrom("documents")
            .where("id", "=", documentId)
            .where("dataset_id", "=", (eb) => eb.selectFrom("locked").select("id"))
            .where("archived", "=", archived)
            .returning("upload_file_id"),
        )
        .with("unused_file", (w) =>
          w
            .deleteFrom("upload_files")
            .where("id", "in", (eb) => eb.selectFrom("gone").select("upload_file_id"))
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("documents")
                    .select("documents.id")
                    .whereRef("documents.upload_file_id", "=", "upload_files.id")
                    .where("documents.id", "<>", documentId),
                ),
              ),
            )
            .returning("id"),
        )
        .selectFrom("gone")
        .select((eb) => eb.fn.countAll<number>().as("deleted")),
  ),
});
const documentDeletesFor = withAndWithoutServing(documentDeletes);
const deleteUnusedFile = compiledRead((db, fileId: string) =>
  db
    .deleteFrom("upload_files")
    .where("id", "=", fileId)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("documents").select("id").where("upload_file_id", "=", fileId))),
    )
    .returning("id"),
);

export class KyselyDocumentRepository implements DocumentRepository {
  readonly #readDetail;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {
    this.#readDetail = documentDetailRead(features);
  }

  async save(document: Document): Promise<"owned_elsewhere" | undefined> {
    const row = documentToRow(document);
    return saveOwnedRow(this.db, "documents", row, "dataset_id");
  }

  async queueForIndexing(document: Document, jobId: string): Promise<void> {
    const row = { ...documentToRow(document), indexing_job: jobId };
    await this.db
      .insertInto("documents")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async recordIndexingStep(documentId: string, fence: IndexingFence, patch: IndexingPatch): Promise<boolean> {
    const write = (trx: Kysely<DatabaseSchema>) =>
      writeWhileFenced(trx, this.features, documentId, fence, indexingPatchColumns(patch));
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  async deleteUnusedUploadFile(fileId: string): Promise<boolean> {
    return (await deleteUnusedFile(this.db, fileId)).length > 0;
  }

  async isIndexingJob(documentId: string, jobId: string): Promise<boolean> {
    const [row] = await this.db
      .selectFrom("documents")
      .select("id")
      .where("id", "=", documentId)
      .where("indexing_job", "=", jobId)
      .execute();
    return row !== undefined;
  }

  async findForIndexing(documentId: string, jobId: string): Promise<Document | undefined> {
    const [row] = await this.db
      .selectFrom("documents")
      .selectAll()
      .where("id", "=", documentId)
      .where("indexing_job", "=", jobId)
      .execute();
    return row && documentFromRow(row);
  }

  findReusable(datasetId: string, name: string): Promise<Document | undefined> {
    return readReusable(this.db, datasetId, name);
  }

  listBatch(datasetId: string, batch: string): Promise<BatchDocument[]> {
    return readBatch(this.db, datasetId, batch);
  }

  async saveUploadFile(workspaceId: string, file: UploadFile): Promise<"owned_elsewhere" | undefined> {
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
    return saveOwnedRow(this.db, "upload_files", row, "workspace_id");
  }

  async saveChunks(chunks: readonly Chunk[]): Promise<string[]> {
    if (chunks.length === 0) return [];
    const rows = chunks.map((chunk) => ({
      id: chunk.id,
      document_id: chunk.documentId,
      position: chunk.position,
      content: chunk.content,
      char_count: characterCount(chunk.content),
      hit_count: chunk.hitCount,
    }));
    const written = await this.db
      .insertInto("chunks")
      .values(rows)
      .onConflict((conflict) =>
        conflict
          .column("id")
          .doUpdateSet(updateAllBut(rows[0]!, "id"))
          .whereRef("chunks.document_id", "=", "excluded.document_id"),
      )
      .returning("id")
      .execute();
    const writtenIds = new Set(written.map((row) => row.id));
    return chunks.map((chunk) => chunk.id).filter((id) => !writtenIds.has(id));
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

  listInDatasetAfter(datasetId: string, after: DocumentPlace | undefined, limit: number) {
    return readDocumentsAfter(this.db, datasetId, after, limit);
  }

  async listChunks(documentId: string): Promise<Chunk[]> {
    const rows = await this.db
      .selectFrom("chunks")
      .select(CHUNK_COLUMNS)
      .where("document_id", "=", documentId)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows.map(chunkFromRow);
  }

  async findInDataset(datasetId: string, documentId: string): Promise<Document | undefined> {
    const [row] = await documentInDataset(this.db, datasetId, documentId);
    return row && documentFromRow(row);
  }

  findDetail(workspaceId: string, datasetId: string, documentId: string) {
    return this.#readDetail(this.db, workspaceId, datasetId, documentId);
  }

  async findManyInDataset(datasetId: string, documentIds: readonly string[]): Promise<Document[]> {
    const unique = [...new Set(documentIds)];
    if (unique.length === 0) return [];
    return (await documentsInDataset(this.db, this.features, unique, datasetId)).map(documentFromRow);
  }

  findForStatusUpdate(workspaceId: string, datasetId: string, documentIds: readonly string[]) {
    return findForStatusUpdate(this.db, this.features, workspaceId, datasetId, documentIds);
  }

  updateStatus(datasetId: string, update: StatusUpdate): Promise<boolean> {
    return updateStatus(this.db, this.features, datasetId, update);
  }

  async findUploadFile(fileId: string): Promise<UploadFile | undefined> {
    const [row] = await uploadFileById(this.db, fileId);
    return row && uploadFileFromRow(row);
  }

  async findServedUploadFile(fileId: string): Promise<UploadFile | undefined> {
    const [row] = await servedUploadFile(this.db, fileId);
    return row && uploadFileFromRow(row);
  }

  findUploadFileHolders(fileIds: readonly string[]): Promise<Map<string, string[]>> {
    return readUploadFileHolders(this.db, this.features, fileIds);
  }

  listPage(datasetId: string, filter: DocumentFilter, offset: number, limit: number) {
    return readDocumentPage(this.db, this.features, datasetId, filter, offset, limit);
  }

  findPage(workspaceId: string, datasetId: string, filter: DocumentFilter, offset: number, limit: number) {
    return readDocumentPageWithDataset(this.db, this.features, workspaceId, datasetId, filter, offset, limit);
  }

  async delete(
    datasetId: string,
    documentId: string,
    expected: { archived: boolean },
    servedTo?: string,
  ): Promise<boolean> {
    // The chunks and values go with the document (foreign keys, on delete cascade); the counters
    // follow by trigger. The file goes too, unless another document uses it.
    const deletes = documentDeletesFor(servedTo);
    const archived = toFlag(expected.archived);
    if (this.features.modifyingCtes) {
      const [row] = await deletes.documentAndFile(this.features)(
        this.db,
        datasetId,
        documentId,
        archived,
        servedTo,
      );
      return Number(row?.deleted ?? 0) > 0;
    }
    const remove = async (db: Kysely<DatabaseSchema>) => {
      const [deleted] = await deletes.documentOnly(db, datasetId, documentId, archived, servedTo);
      if (deleted?.upload_file_id) await deleteUnusedFile(db, deleted.upload_file_id);
      return deleted !== undefined;
    };
    return this.db.isTransaction ? remove(this.db) : this.db.transaction().execute(remove);
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

  lastPosition(datasetId: string): Promise<number> {
    return readLastPosition(this.db, datasetId);
  }
}
