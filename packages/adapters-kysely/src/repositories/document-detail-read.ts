import type { Dataset } from "@service-api/domain";
import type { DocumentDetailRecord } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledReadWith } from "../compiled-read.js";
import type { DatabaseSchema, DocumentTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { entryFromRow, valuesWithFields } from "./metadata-rows.js";
import { jsonRows } from "./rows.js";
import { FILE_COLUMNS, uploadFileFromColumns } from "./upload-file-rows.js";

/**
 * The dataset, its document, the document's file, chunk totals, creator and metadata values (a
 * JSON array): all Get Document reads, in one statement and one row while the dataset exists.
 * The document's columns keep their names; the dataset's are prefixed `ds_`. One row, not one per
 * value: a row per value repeated every column and the chunk totals, which cost SQLite more than
 * the separate statements did.
 */
const detailOfDocument = compiledReadWith(
  (db, features, workspaceId: string, datasetId: string, documentId: string) =>
    db
      .selectFrom("datasets as ds")
      .leftJoin("documents as doc", (join) =>
        join.onRef("doc.dataset_id", "=", "ds.id").on("doc.id", "=", documentId),
      )
      .leftJoin("upload_files as file", "file.id", "doc.upload_file_id")
      .leftJoin("members as creator", (join) =>
        join.onRef("creator.id", "=", "doc.created_by").onRef("creator.workspace_id", "=", "ds.workspace_id"),
      )
      .select(DATASET_COLUMNS_PREFIXED as never[])
      .selectAll("doc")
      .select(Object.entries(FILE_COLUMNS).map(([column, alias]) => `${column} as ${alias}`) as never[])
      .select("creator.name as creator_name")
      .select((eb) => {
        // Three lookups of the document's chunks by index; a joined aggregate would be a scan of its result.
        const ofChunks = () => eb.selectFrom("chunks").where("chunks.document_id", "=", documentId);
        return [
          ofChunks()
            .select((inner) => inner.fn.countAll<number>().as("count"))
            .as("chunk_count"),
          ofChunks()
            .select((inner) => inner.fn.sum<number>("chunks.hit_count").as("hits"))
            .as("chunk_hits"),
          ofChunks()
            .select((inner) => inner.fn.sum<number>("chunks.char_count").as("characters"))
            .as("chunk_characters"),
          features.jsonArrayFrom(valuesWithFields(db, documentId)).as("value_rows"),
        ];
      })
      .where("ds.id", "=", datasetId)
      .where("ds.workspace_id", "=", workspaceId),
);

type Row = Record<string, unknown>;

function detailOf(row: Row): DocumentDetailRecord {
  return {
    document: documentFromRow(row as unknown as Selectable<DocumentTable>),
    uploadFile: uploadFileFromColumns(row),
    chunks: {
      count: Number(row.chunk_count ?? 0),
      hitCount: Number(row.chunk_hits ?? 0),
      characters: Number(row.chunk_characters ?? 0),
    },
    values: jsonRows<Parameters<typeof entryFromRow>[0]>(row.value_rows).map(entryFromRow),
    creatorName: (row.creator_name as string | null) ?? null,
  };
}

/** Get Document's read (see `DocumentRepository.findDetail`), for a database with these features. */
export function documentDetailRead(features: SqlFeatures) {
  const read = detailOfDocument(features);
  return async (
    db: Kysely<DatabaseSchema>,
    workspaceId: string,
    datasetId: string,
    documentId: string,
  ): Promise<{ dataset: Dataset | undefined; detail: DocumentDetailRecord | undefined }> => {
    const [row] = (await read(db, workspaceId, datasetId, documentId)) as Row[];
    if (!row) return { dataset: undefined, detail: undefined };
    return { dataset: datasetFromPrefixed(row), detail: row.id === null ? undefined : detailOf(row) };
  };
}
