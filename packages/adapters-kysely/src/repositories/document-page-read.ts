import type { Dataset } from "@service-api/domain";
import type { DocumentFilter, DocumentListing } from "@service-api/ports";
import { type Compilable, type Expression, type Kysely, type Selectable, sql } from "kysely";
import { compiledRead, compiledReadWith, LARGEST_COMPILED_COUNT } from "../compiled-read.js";
import type { DatabaseSchema, DocumentTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { entryFromRow, valuesWithFields } from "./metadata-rows.js";
import { jsonRows } from "./rows.js";
import { FILE_COLUMNS, UPLOAD_FILE_COLUMNS, uploadFileOfRow } from "./upload-file-rows.js";

/** The dataset's document counter, kept by triggers: the unfiltered total at any size. */
export const documentCount = compiledRead((db, datasetId: string) =>
  db.selectFrom("datasets").select("document_count").where("id", "=", datasetId),
);

function listingFromRow(row: Record<string, unknown>): DocumentListing {
  return {
    document: documentFromRow(row as unknown as Selectable<DocumentTable>),
    uploadFile: uploadFileOfRow(row),
    hitCount: Number(row.hit_count ?? 0),
    creatorName: (row.creator_name as string | null) ?? null,
    values: jsonRows<Parameters<typeof entryFromRow>[0]>(row.value_rows).map(entryFromRow),
  };
}

/**
 * A page of the dataset's documents matching `filter`, with what the list shows, and the matching
 * set. `searchIndex` false: a keyword is looked for in the dataset's names alone.
 */
function documentPage(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  filter: DocumentFilter,
  offset: number | Expression<number>,
  limit: number | Expression<number>,
  searchIndex = true,
) {
  let matching = db.selectFrom("documents").where("documents.dataset_id", "=", datasetId);
  if (filter.status !== undefined) matching = matching.where("documents.display_status", "=", filter.status);
  if (filter.keyword !== undefined) {
    const search = searchIndex ? features.documentNameSearch(filter.keyword) : undefined;
    if (search) matching = matching.where(search);
    matching = matching.where(
      features.containsText("documents.name", features.textFilterArgument(filter.keyword)),
    );
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
  const listed = db.selectFrom(pageRows.as("page")).selectAll("page");
  // Where the page is one JSON array (PostgreSQL), each row's upload file is a JSON object a
  // sub-select finds by id: joined, PostgreSQL hashed all the workspace's files when they were few
  // (1,000 at 1k documents, 12% of the page's statement) to find 20. Elsewhere its columns, joined.
  const withFiles = features.jsonOfWholeRows
    ? listed.select((eb) =>
        features
          .jsonObjectFrom(
            eb
              .selectFrom("upload_files")
              .select(UPLOAD_FILE_COLUMNS)
              .whereRef("upload_files.id", "=", "page.upload_file_id"),
          )
          .as("file"),
      )
    : listed
        .leftJoin("upload_files as file", "file.id", "page.upload_file_id")
        .select(Object.entries(FILE_COLUMNS).map(([column, alias]) => `${column} as ${alias}`) as never[]);
  const page = (withFiles as typeof listed)
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
      return withDataset ? besideDataset(db, features, workspaceId as string, datasetId, page) : page;
    },
  );

type Row = Record<string, unknown>;
type Page = ReturnType<typeof documentPage>["page"];

/**
 * The page beside the workspace's dataset (its columns prefixed `ds_`); no row without the dataset.
 * Where the database can (PostgreSQL), one row with the page as a JSON array (`page_rows`): the
 * driver parses it at once, where a row per document repeated the dataset's columns and had each of
 * its ~60 values parsed apart (the driver's CPU per page ~300 → ~70 µs). Elsewhere a row per document in
 * the page's order, one with a null id for an empty page. The page does not depend on the dataset's
 * row, so it needs no lateral join.
 */
function besideDataset(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string,
  datasetId: string,
  page: Page,
): Compilable<Row> {
  const dataset = db
    .selectFrom("datasets as ds")
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .where("ds.id", "=", datasetId)
    .where("ds.workspace_id", "=", workspaceId);
  if (features.jsonOfWholeRows) return dataset.select(features.jsonArrayFrom(page).as("page_rows"));
  return dataset
    .leftJoin(page.as("listed"), (join) => join.onTrue())
    .selectAll("listed")
    .orderBy("listed.created_at", "desc")
    .orderBy("listed.position", "desc")
    .orderBy("listed.id") as unknown as Compilable<Row>;
}

/** The unfiltered page's rows (beside the dataset where `workspaceId` is given): compiled, on PostgreSQL named. */
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
    const query = workspaceId === null ? page : besideDataset(db, features, workspaceId, datasetId, page);
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

type Listed = { items: DocumentListing[]; total: number };

/** `DocumentRepository.listPage`'s read: the page and how many documents match. */
export async function readDocumentPage(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  filter: DocumentFilter,
  offset: number,
  limit: number,
): Promise<Listed> {
  const rows = await pageRows(db, features, null, datasetId, filter, offset, limit);
  return listed(db, features, rows, datasetId, filter, offset);
}

/**
 * `DocumentRepository.findPage`'s read: the workspace's dataset and its page, in one statement (on
 * SQLite, a keyword's reads the dataset's counter first: `searchesIndex`).
 */
export async function readDocumentPageWithDataset(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string,
  datasetId: string,
  filter: DocumentFilter,
  offset: number,
  limit: number,
): Promise<Listed & { dataset: Dataset | undefined }> {
  const rows = await pageRows(db, features, workspaceId, datasetId, filter, offset, limit);
  const [first] = rows;
  if (!first) return { dataset: undefined, items: [], total: 0 };
  const documents =
    "page_rows" in first ? jsonRows<Row>(first.page_rows) : rows.filter((row) => row.id !== null);
  return {
    dataset: datasetFromPrefixed(first),
    ...(await listed(db, features, documents, datasetId, filter, offset)),
  };
}

const unfiltered = (filter: DocumentFilter) => filter.status === undefined && filter.keyword === undefined;

/** The page's rows, beside the dataset where `workspaceId` is given. */
async function pageRows(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string | null,
  datasetId: string,
  filter: DocumentFilter,
  offset: number,
  limit: number,
): Promise<Row[]> {
  if (unfiltered(filter)) return readUnfilteredPage(db, features, workspaceId, datasetId, offset, limit);
  const searchIndex = await searchesIndex(db, features, datasetId, filter);
  const { page } = documentPage(db, features, datasetId, filter, offset, limit, searchIndex);
  const query = workspaceId === null ? page : besideDataset(db, features, workspaceId, datasetId, page);
  return (await db.executeQuery(query.compile())).rows as Row[];
}

/** The listing of the page's rows; only a page past the end needs a count of its own. */
async function listed(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  rows: Row[],
  datasetId: string,
  filter: DocumentFilter,
  offset: number,
): Promise<Listed> {
  const total =
    rows[0]?.matching_total ?? (offset === 0 ? 0 : await countMatching(db, features, datasetId, filter));
  return { items: rows.map(listingFromRow), total: Number(total) };
}

async function countMatching(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  filter: DocumentFilter,
): Promise<number> {
  if (unfiltered(filter)) {
    const [row] = await documentCount(db, datasetId);
    return Number(row?.document_count ?? 0);
  }
  const searchIndex = await searchesIndex(db, features, datasetId, filter);
  const { matching } = documentPage(db, features, datasetId, filter, 0, 0, searchIndex);
  const counted = await matching
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirstOrThrow();
  return Number(counted.total);
}

/** Whether a keyword goes through the name search index, by the dataset's size where that decides. */
async function searchesIndex(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  filter: DocumentFilter,
): Promise<boolean> {
  const from = features.nameSearchFromDocuments;
  const { keyword } = filter;
  // Nothing to decide where there is no keyword, or one the index cannot serve anyway.
  if (keyword === undefined || from === undefined || !features.documentNameSearch(keyword)) return true;
  const [row] = await documentCount(db, datasetId);
  return Number(row?.document_count ?? 0) >= from;
}
