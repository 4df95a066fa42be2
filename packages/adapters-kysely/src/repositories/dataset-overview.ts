import type { DataSourceType, DocForm } from "@service-api/domain";
import type { DatasetOverview } from "@service-api/ports";
import { type ExpressionBuilder, sql } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { type DatasetRow, datasetFromRow } from "./dataset-rows.js";
import { fieldFromRow } from "./kysely-metadata-repository.js";
import { tagFromRow } from "./kysely-tag-repository.js";
import { jsonRows } from "./rows.js";

export type OverviewRow = DatasetRow & {
  author_name: string | null;
  first_source: string | null;
  first_form: string | null;
  /** JSON arrays, parsed or as text as the driver answers them. */
  tag_rows: unknown;
  field_rows: unknown;
};

export function overviewFromRow(row: OverviewRow): DatasetOverview {
  return {
    dataset: datasetFromRow(row),
    counts: {
      documents: Number(row.document_count),
      availableDocuments: Number(row.available_document_count),
      words: Number(row.word_count),
    },
    firstDocument:
      row.first_source !== null && row.first_form !== null
        ? { dataSourceType: row.first_source as DataSourceType, docForm: row.first_form as DocForm }
        : undefined,
    authorName: row.author_name,
    tags: jsonRows<Parameters<typeof tagFromRow>[0]>(row.tag_rows).map(tagFromRow),
    fields: jsonRows<Parameters<typeof fieldFromRow>[0]>(row.field_rows).map(fieldFromRow),
  };
}

/**
 * The creator's name, the first document's kind, and where reads are gathered the knowledge tags
 * and the fields as JSON arrays: index seeks, whatever the number of documents, in the dataset's
 * own statement. Elsewhere the overview's tags and fields are empty here and `readSeparately` reads them.
 */
export const aroundDataset =
  (features: SqlFeatures) => (eb: ExpressionBuilder<DatabaseSchema, "datasets">) => {
    const firstDocument = eb
      .selectFrom("documents")
      .whereRef("documents.dataset_id", "=", "datasets.id")
      .orderBy("documents.position")
      .orderBy("documents.id")
      // Written in, not a parameter: PostgreSQL's generic plan assumes an unknown limit keeps a tenth
      // of the rows, looks dearer than a custom plan, and so the statement is planned on every call.
      .limit(sql.lit(1));
    return [
      eb
        .selectFrom("members")
        .select("members.name")
        .whereRef("members.id", "=", "datasets.created_by")
        .as("author_name"),
      firstDocument.select("documents.data_source_type").as("first_source"),
      firstDocument.select("documents.doc_form").as("first_form"),
      ...(features.gathersReads ? labelsOf(features, eb) : []),
    ];
  };

const labelsOf = (features: SqlFeatures, eb: ExpressionBuilder<DatabaseSchema, "datasets">) => [
  features
    .jsonArrayFrom(
      eb
        .selectFrom("tag_bindings")
        .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
        .select(["tags.id", "tags.workspace_id", "tags.type", "tags.name", "tags.created_at"])
        .whereRef("tag_bindings.target_id", "=", "datasets.id")
        .where("tags.type", "=", "knowledge")
        .orderBy("tags.name")
        .orderBy("tags.id"),
    )
    .as("tag_rows"),
  features
    .jsonArrayFrom(
      eb
        .selectFrom("metadata_fields")
        .select(["id", "dataset_id", "name", "type", "created_at"])
        .whereRef("metadata_fields.dataset_id", "=", "datasets.id")
        .orderBy("created_at")
        .orderBy("position")
        .orderBy("id"),
    )
    .as("field_rows"),
];
