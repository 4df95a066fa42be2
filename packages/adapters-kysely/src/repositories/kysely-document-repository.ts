import type { Chunk, ChunkStats, Document, UploadFile } from "@service-api/domain";
import type { DocumentFilter, DocumentListing, DocumentRepository, StatusUpdate } from "@service-api/ports";
import { type Compilable, type Expression, type Kysely, type Selectable, sql } from "kysely";
import { compiledForIds, compiledRead, compiledReadWith, LARGEST_COMPILED_COUNT } from "../compiled-read.js";
import type { DatabaseSchema, DocumentTable, Flag } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { documentDetailRead } from "./document-detail-read.js";
import { documentFromRow, documentToRow } from "./document-rows.js";
import { findForStatusUpdate, updateStatus } from "./document-status-writes.js";
import { entryFromRow, valuesWithFields } from "./metadata-rows.js";
import { jsonRows, toFlag, updateAllBut } from "./rows.js";
import { FILE_COLUMNS, uploadFileFromColumns, uploadFileFromRow } from "./upload-file-rows.js";

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
const documentsInDataset = compiledForIds((db, among, _features, datasetId) =>
  db
    .selectFrom("documents")
    .selectAll()
    .where("dataset_id", "=", datasetId as string)
    .where(among("id")),
);
const deleteDocument = compiledRead((db, datasetId: string, documentId: string, archived: Flag) =>
  db
    .deleteFrom("documents")
    .where("id", "=", documentId)
    .where("dataset_id", "=", datasetId)
    .where("archived", "=", archived)
    .returning("upload_file_id"),
);
/**
 * PostgreSQL: the document and then its file if unused, in one statement, after the dataset's
 * lock. The statement still sees the document it deletes, so the file check leaves it out.
 */
const deleteDocumentLocked = compiledRead((db, datasetId: string, documentId: string, archived: Flag) =>
  db
    .with("locked", (w) => w.selectFrom("datasets").select("id").where("id", "=", datasetId).forUpdate())
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
);
const deleteUnusedFile = compiledRead((db, fileId: string) =>
  db
    .deleteFrom("upload_files")
    .where("id", "=", fileId)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("documents").select("id").where("upload_file_id", "=", fileId))),
    ),
);

function listingFromRow(row: Record<string, unknown>): DocumentListing {
  return {
    document: documentFromRow(row as unknown as Selectable<DocumentTable>),
    uploadFile: uploadFileFromColumns(row),
    hitCount: Number(row.hit_count ?? 0),
    creatorName: (row.creator_name as string | null) ?? null,
    values: jsonRows<Parameters<typeof entryFromRow>[0]>(row.value_rows).map(entryFromRow),
  };
}

/** A page of the dataset's documents matching `filter`, with what the list shows, and the matching set. */
function documentPage(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  filter: DocumentFilter,
  offset: number | Expression<number>,
  limit: number | Expression<number>,
) {
  let matching = db.selectFrom("documents").where("documents.dataset_id", "=", datasetId);
  if (filter.status !== undefined) matching = matching.where("documents.display_status", "=", filter.status);
  if (filter.keyword !== undefined) {
    const search = features.documentNameSearch(filter.keyword);
    if (search) matching = matching.where(search);
    matching = matching.where(features.containsText("documents.name", filter.keyword));
  }
  const filtered = filter.status !== undefined || filter.keyword !== undefined;
  // The page's rows first, then what the list shows for those rows only: the sub-selects never run
  // for the rows the offset skips, and PostgreSQL's generic plan of the compiled page costs about
  // what a custom one does, so it stops planning the page on every request.
  const pageRows = matching
    .selectAll("documents")
    .orderBy("documents.created_at", "desc")
    .orderBy("documents.position", "desc")
    .orderBy("documents.id")
    .limit(limit)
    .offset(offset);
  const page = db
    .selectFrom(pageRows.as("page"))
    .leftJoin("upload_files as file", "file.id", "page.upload_file_id")
    .selectAll("page")
    .select(Object.entries(FILE_COLUMNS).map(([column, alias]) => `${column} as ${alias}`) as never[])
    .select((eb) => [
      eb
        .selectFrom("chunks")
        .select((inner) => inner.fn.sum<number>("chunks.hit_count").as("sum"))
        .whereRef("chunks.document_id", "=", "page.id")
        .as("hit_count"),
      eb
        .selectFrom("members")
        .select("members.name")
        .whereRef("members.id", "=", "page.created_by")
        .as("creator_name"),
      // Where reads are gathered; elsewhere `readSeparately` reads the page's values.
      ...(features.gathersReads
        ? [features.jsonArrayFrom(valuesWithFields(db, eb.ref("page.id"))).as("value_rows")]
        : []),
      // Unfiltered, the total is the dataset's counter: the page costs the same at 1k or 1M
      // documents. Either way it is a sub-select run once, not per row.
      (filtered
        ? matching.select((inner) => inner.fn.countAll<number>().as("total"))
        : eb.selectFrom("datasets").select("datasets.document_count").where("datasets.id", "=", datasetId)
      ).as("matching_total"),
    ])
    .orderBy("page.created_at", "desc")
    .orderBy("page.position", "desc")
    .orderBy("page.id");
  return { page, matching };
}

/**
 * The unfiltered page, compiled once per page size with the size written in: an unknown `LIMIT`
 * makes PostgreSQL's generic plan look dearer than a custom one, which it then plans every time.
 * An unknown `OFFSET` does the same (the planner assumes a tenth of the rows are skipped), so the
 * first page, the one asked for most, has its offset written in too; a later page is planned per
 * request. Sizes above `LARGEST_COMPILED_COUNT` are built per call, so the kept statements stay bounded.
 */
const pageStatements = new Map<string, ReturnType<typeof unfilteredPageOfSize>>();
const unfilteredPageOfSize = (limit: number, first: boolean, withDataset: boolean) =>
  compiledReadWith(
    (db, features, workspaceId: string | null, datasetId: string, offset: number): Compilable<Row> => {
      const { page } = documentPage(db, features, datasetId, {}, first ? sql.lit(0) : offset, sql.lit(limit));
      return withDataset ? besideDataset(db, workspaceId as string, datasetId, page) : page;
    },
  );

type Row = Record<string, unknown>;
type Page = ReturnType<typeof documentPage>["page"];

/**
 * The page's rows beside the workspace's dataset (its columns prefixed `ds_`), in the page's order:
 * one row with a null id for an empty page, none without the dataset. The page does not depend on
 * the dataset's row, so no lateral join is needed; it is read only when the dataset is found.
 */
function besideDataset(db: Kysely<DatabaseSchema>, workspaceId: string, datasetId: string, page: Page) {
  return db
    .selectFrom("datasets as ds")
    .leftJoin(page.as("listed"), (join) => join.onTrue())
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .selectAll("listed")
    .where("ds.id", "=", datasetId)
    .where("ds.workspace_id", "=", workspaceId)
    .orderBy("listed.created_at", "desc")
    .orderBy("listed.position", "desc")
    .orderBy("listed.id") as unknown as Compilable<Row>;
}

/** The unfiltered page's rows, beside the dataset where `workspaceId` is given. */
async function readUnfilteredPage(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string | null,
  datasetId: string,
  offset: number,
  limit: number,
): Promise<Row[]> {
  if (limit > LARGEST_COMPILED_COUNT) {
    const { page } = documentPage(db, features, datasetId, {}, offset, limit);
    const query = workspaceId === null ? page : besideDataset(db, workspaceId, datasetId, page);
    return (await db.executeQuery(query.compile())).rows as Row[];
  }
  const first = offset === 0;
  const withDataset = workspaceId !== null;
  const key = `${limit}${first ? " first" : ""}${withDataset ? " with dataset" : ""}`;
  let ofSize = pageStatements.get(key);
  if (!ofSize) {
    ofSize = unfilteredPageOfSize(limit, first, withDataset);
    pageStatements.set(key, ofSize);
  }
  return ofSize(features)(db, workspaceId, datasetId, offset);
}

export class KyselyDocumentRepository implements DocumentRepository {
  readonly #readDetail;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {
    this.#readDetail = documentDetailRead(features);
  }

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

  async listPage(
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DocumentListing[]; total: number }> {
    const rows = await this.#pageRows(null, datasetId, filter, offset, limit);
    return this.#pageOf(rows, datasetId, filter, offset);
  }

  async findPage(
    workspaceId: string,
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ) {
    const rows = await this.#pageRows(workspaceId, datasetId, filter, offset, limit);
    const [first] = rows;
    if (!first) return { dataset: undefined, items: [], total: 0 };
    const listed = rows.filter((row) => row.id !== null);
    return {
      dataset: datasetFromPrefixed(first),
      ...(await this.#pageOf(listed, datasetId, filter, offset)),
    };
  }

  /** The page's rows (beside the dataset where `workspaceId` is given): unfiltered, a compiled statement. */
  async #pageRows(
    workspaceId: string | null,
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ): Promise<Row[]> {
    if (filter.status === undefined && filter.keyword === undefined)
      return readUnfilteredPage(this.db, this.features, workspaceId, datasetId, offset, limit);
    const { page } = documentPage(this.db, this.features, datasetId, filter, offset, limit);
    const query = workspaceId === null ? page : besideDataset(this.db, workspaceId, datasetId, page);
    return (await this.db.executeQuery(query.compile())).rows as Row[];
  }

  /** The listing of the page's rows; only a page past the end needs a count of its own. */
  async #pageOf(rows: Row[], datasetId: string, filter: DocumentFilter, offset: number) {
    const total =
      rows[0]?.matching_total ?? (offset === 0 ? 0 : await this.#countMatching(datasetId, filter));
    return { items: rows.map(listingFromRow), total: Number(total) };
  }

  async #countMatching(datasetId: string, filter: DocumentFilter): Promise<number> {
    if (filter.status === undefined && filter.keyword === undefined) return this.countInDataset(datasetId);
    const { matching } = documentPage(this.db, this.features, datasetId, filter, 0, 0);
    const counted = await matching
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow();
    return Number(counted.total);
  }

  async delete(datasetId: string, documentId: string, expected: { archived: boolean }): Promise<boolean> {
    // The chunks and values go with the document (foreign keys, on delete cascade); the counters
    // follow by trigger. The file goes too, unless another document uses it.
    if (this.features.modifyingCtes) {
      const [row] = await deleteDocumentLocked(this.db, datasetId, documentId, toFlag(expected.archived));
      return Number(row?.deleted ?? 0) > 0;
    }
    const remove = async (db: Kysely<DatabaseSchema>) => {
      const [deleted] = await deleteDocument(db, datasetId, documentId, toFlag(expected.archived));
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
}
