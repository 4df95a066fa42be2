import type { Dataset, DatasetPermission, IndexingTechnique, RetrievalModel } from "@service-api/domain";
import type { QueryCreator, Selectable } from "kysely";
import type { DatabaseSchema, DatasetTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { fromFlag, processRuleFromColumns, toFlag } from "./rows.js";

export type DatasetRow = Selectable<DatasetTable>;

export function datasetFromRow(row: DatasetRow): Dataset {
  const { process_rule_id: ruleId, process_rule_mode: mode, process_rule_rules: rules } = row;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    enableApi: fromFlag(row.enable_api),
    builtInFieldEnabled: fromFlag(row.built_in_field_enabled),
    processRule:
      ruleId !== null && mode !== null && rules !== null
        ? processRuleFromColumns(ruleId, mode, rules)
        : undefined,
    description: row.description,
    indexingTechnique: row.indexing_technique as IndexingTechnique | null,
    permission: row.permission as DatasetPermission,
    retrievalModel: row.retrieval_model === null ? null : (JSON.parse(row.retrieval_model) as RetrievalModel),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Every dataset column; the compiler checks that none is missing. */
export const DATASET_COLUMNS = Object.keys({
  id: true,
  workspace_id: true,
  name: true,
  enable_api: true,
  built_in_field_enabled: true,
  process_rule_id: true,
  process_rule_mode: true,
  process_rule_rules: true,
  created_at: true,
  document_count: true,
  description: true,
  created_by: true,
  updated_by: true,
  updated_at: true,
  available_document_count: true,
  word_count: true,
  indexing_technique: true,
  permission: true,
  retrieval_model: true,
  chunk_structure: true,
} satisfies Record<keyof DatasetTable, true>) as (keyof DatasetTable)[];

/** Every column of `datasets as ds`, prefixed `ds_`, to sit beside another table's in one row. */
export const DATASET_COLUMNS_PREFIXED = DATASET_COLUMNS.map(
  (column) => `ds.${column} as ds_${column}` as const,
);

/** The dataset from a row read with `DATASET_COLUMNS_PREFIXED`. */
export function datasetFromPrefixed(row: Record<string, unknown>): Dataset {
  const columns = Object.fromEntries(DATASET_COLUMNS.map((column) => [column, row[`ds_${column}`]]));
  return datasetFromRow(columns as unknown as DatasetRow);
}

/**
 * The dataset's id, as a sub-select; with `servedTo` (`ServedTo`), only while the dataset is that
 * workspace's and serves the API, so a write that compares against it checks the dataset as it
 * writes.
 */
export function datasetServing(
  db: QueryCreator<DatabaseSchema>,
  datasetId: string,
  servedTo: string | undefined,
) {
  const select = db.selectFrom("datasets").select("id").where("id", "=", datasetId);
  return servedTo === undefined
    ? select
    : select.where("workspace_id", "=", servedTo).where("enable_api", "=", toFlag(true));
}

/** `datasetServing` for one set of statements: checking `servedTo`, or (unchecked) ignoring it. */
export type DatasetScope = (
  db: QueryCreator<DatabaseSchema>,
  datasetId: string,
  servedTo: string | undefined,
) => ReturnType<typeof datasetServing>;

/**
 * A write's statements built twice by `make`, each compiled once: with a scope that ignores
 * `servedTo` and with one that checks it (`ServedTo`). Gives those a write with that `servedTo` runs.
 */
export function withAndWithoutServing<Statements>(make: (scoped: DatasetScope) => Statements) {
  const unchecked = make((db, datasetId) => datasetServing(db, datasetId, undefined));
  const checked = make(datasetServing);
  return (servedTo: string | undefined) => (servedTo === undefined ? unchecked : checked);
}

/**
 * The dataset's id (`datasetServing`), locked alone where rows lock: a single write statement that
 * compares against it takes the dataset's lock before any row it changes. It passes the dataset's
 * turnstile first (`DatasetPassage`: a fair queue), then locks the row `FOR NO KEY UPDATE`, which
 * excludes value writes (`FOR SHARE`) and not the foreign keys' checks of rows being inserted.
 */
export function lockedWhereRowsLock(
  features: SqlFeatures,
  select: ReturnType<typeof datasetServing>,
  datasetId: string,
) {
  if (!features.locksRows) return select;
  const turnstile = features.datasetTurnstile?.(datasetId, "exclusive");
  return (turnstile ? select.where(turnstile) : select).forNoKeyUpdate();
}
