import type { Dataset } from "@service-api/domain";
import type { DocumentDetailRecord } from "@service-api/ports";
import type { Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DocumentTable } from "../schema.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { entryFromRow } from "./metadata-rows.js";
import { FILE_COLUMNS, uploadFileFromColumns } from "./upload-file-rows.js";

/**
 * The dataset, its document, the document's file, chunk totals and creator, and one row per metadata
 * value (at least one row while the dataset exists): all Get Document reads, in one statement.
 * The document's columns keep their names; the dataset's are prefixed `ds_`.
 */
const detailOfDocument = compiledRead((db, workspaceId: string, datasetId: string, documentId: string) =>
  db
    .selectFrom("datasets as ds")
    .leftJoin("documents as doc", (join) =>
      join.onRef("doc.dataset_id", "=", "ds.id").on("doc.id", "=", documentId),
    )
    .leftJoin("upload_files as file", "file.id", "doc.upload_file_id")
    .leftJoin("members as creator", (join) =>
      join.onRef("creator.id", "=", "doc.created_by").onRef("creator.workspace_id", "=", "ds.workspace_id"),
    )
    .leftJoin("document_metadata_values as value", "value.document_id", "doc.id")
    .leftJoin("metadata_fields as field", "field.id", "value.field_id")
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .selectAll("doc")
    .select(Object.entries(FILE_COLUMNS).map(([column, alias]) => `${column} as ${alias}`) as never[])
    .select([
      "creator.name as creator_name",
      "field.id as field_id",
      "field.name as field_name",
      "field.type as field_type",
      "value.value as field_value",
    ])
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
      ];
    })
    .where("ds.id", "=", datasetId)
    .where("ds.workspace_id", "=", workspaceId)
    .orderBy("field.created_at")
    .orderBy("field.position")
    .orderBy("field.id"),
);

type Row = Record<string, unknown>;

function detailOf(rows: Row[]): DocumentDetailRecord {
  const [row] = rows as [Row];
  return {
    document: documentFromRow(row as unknown as Selectable<DocumentTable>),
    uploadFile: uploadFileFromColumns(row),
    chunks: {
      count: Number(row.chunk_count ?? 0),
      hitCount: Number(row.chunk_hits ?? 0),
      characters: Number(row.chunk_characters ?? 0),
    },
    values: rows
      .filter((value) => value.field_id !== null)
      .map((value) =>
        entryFromRow({
          id: value.field_id as string,
          name: value.field_name as string,
          type: value.field_type as string,
          value: value.field_value as string,
        }),
      ),
    creatorName: (row.creator_name as string | null) ?? null,
  };
}

/** Get Document's read: see `DocumentRepository.findDetail`. */
export async function readDocumentDetail(
  ...args: Parameters<typeof detailOfDocument>
): Promise<{ dataset: Dataset | undefined; detail: DocumentDetailRecord | undefined }> {
  const rows = (await detailOfDocument(...args)) as Row[];
  const [first] = rows;
  if (!first) return { dataset: undefined, detail: undefined };
  return { dataset: datasetFromPrefixed(first), detail: first.id === null ? undefined : detailOf(rows) };
}
